import ArgumentParser
import FeedCore
import FeedServer
import Foundation

/// `feed jobs add KIND [REQUEST]`: queues a job.
struct JobsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Queue a job; prints it as JSON.",
        discussion: """
            KIND and its REQUEST (a JSON object): stack {"front":{"recording":ID},"back":{"recording":ID}, \
            "options":{…},"title":…} (as POST /jobs/stack; a source may be {"upload":ID}); hls \
            {"recording":ID}; thumb {"recording":ID,"at":SECONDS}; noop {} (does nothing: queue checks). \
            The request is checked when a worker runs it; one that is not JSON is refused now (65).
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("stack, hls, thumb or noop.", valueName: "kind")) var kind: String
    @Argument(help: ArgumentHelp("The request, a JSON object.", valueName: "request")) var request = "{}"
    @Option(help: "Claims before a job whose leases keep expiring is dead.") var maxAttempts = Job.defaultMaxAttempts

    func validate() throws {
        guard JobKind(rawValue: kind) != nil else {
            throw ValidationError("unknown job kind \(kind): use \(JobKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...100).contains(maxAttempts) else { throw ValidationError("--max-attempts must be 1…100, not \(maxAttempts)") }
    }

    func run() async throws {
        guard (try? JSONSerialization.jsonObject(with: Data(request.utf8))) is [String: Any] else {
            throw CommandFailure(description: "job request: not a JSON object: \(request)", kind: .invalidData)
        }
        let roll = try await store.open()
        let job = try await roll.jobStore.enqueue(kind: kind, request: request, maxAttempts: maxAttempts)
        try StandardStream.output.write(JobJSON.bytes(job) + [0x0A])
    }
}
