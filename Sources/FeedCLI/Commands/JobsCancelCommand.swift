import ArgumentParser
import FeedCore

/// `feed jobs cancel ID`: cancels a queued or running job.
struct JobsCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a queued or running job; prints it as JSON.",
        discussion: """
            A running job's lease is taken at once: its worker stops at its next renewal and leaves \
            no output and no row. An unknown id exits 65; a job that already ended exits 65 naming \
            its state.

            EXAMPLES:
              feed jobs cancel 7
              feed jobs cancel 7 | jq -r .state
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The job's id.", valueName: "id")) var id: Int64

    func run() async throws {
        try await store.withRoll { roll in
            let job = try await JobQueue(roll: roll).cancel(id: id)
            try StandardStream.output.write(JobJSON.bytes(job) + [0x0A])
        }
    }
}
