import ArgumentParser
import FeedCore
import Foundation

/// `feed jobs add KIND [REQUEST]`: queues a job.
struct JobsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Queue a job; prints it as JSON.",
        discussion: """
            KIND and its REQUEST (a JSON object): stack {"front":{"recording":ID},"back":{"recording":ID}, \
            "options":{…},"title":…} (the body of POST /jobs/stack; a source may be {"upload":"ID"}); \
            hls {"recording":ID}; thumb {"recording":ID,"at":SECONDS}; noop {} (does nothing: queue checks). \
            The request is checked now, as POST /jobs/stack checks it, with the same messages: \
            64 when it is not JSON or not the kind's shape, 65 when an option is out of range or \
            contradicts another, or a recording or upload it names does not exist or is not finished.

            EXAMPLES:
              feed jobs add noop
              feed jobs add thumb '{"recording":1,"at":2.5}'
              feed jobs add stack '{"front":{"recording":1},"back":{"recording":2}}'
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("stack, hls, thumb or noop.", valueName: "kind")) var kind: String
    @Argument(help: ArgumentHelp("The request, a JSON object.", valueName: "request")) var request = "{}"
    @Option(help: "Claims before a job whose leases keep expiring is dead.") var maxAttempts = JobPolicy.defaultMaxAttempts

    func validate() throws {
        guard (1...100).contains(maxAttempts) else { throw ValidationError("--max-attempts must be 1…100, not \(maxAttempts)") }
    }

    func run() async throws {
        let request = try JobRequest(kind: kind, json: request)
        try await store.withRoll { roll in
            let queue = JobQueue(roll: roll)
            let job = try await queue.enqueue(request, maxAttempts: maxAttempts)
            try StandardStream.output.write(JobJSON.bytes(job) + [0x0A])
        }
    }
}
