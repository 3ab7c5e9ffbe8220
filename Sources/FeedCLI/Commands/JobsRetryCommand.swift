import ArgumentParser
import FeedCore

/// `feed jobs retry ID`: queues a failed, dead or cancelled job again.
struct JobsRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue a failed, dead or cancelled job again (its attempts start over); prints it as JSON.",
        discussion: """
            An unknown id exits 65; a job that is queued, running or done is left as it is and \
            exits 65 naming its state.

            EXAMPLES:
              feed jobs retry 7
              feed jobs --state dead --json | jq '.[].id' | xargs -n1 feed jobs retry
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The job's id.", valueName: "id")) var id: Int64

    func run() async throws {
        try await store.withRoll { roll in
            let job = try await JobQueue(roll: roll).retry(id: id)
            try StandardStream.output.write(JobJSON.bytes(job) + [0x0A])
        }
    }
}
