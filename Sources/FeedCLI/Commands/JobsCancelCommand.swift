import ArgumentParser
import FeedCore
import FeedServer

/// `feed jobs cancel ID`: cancels a queued or running job.
struct JobsCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a queued or running job; prints it as JSON.",
        discussion: """
            A running job's lease is taken at once: its worker stops at its next renewal and leaves \
            no output and no row. A job that already ended exits 65 naming its state.
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The job's id.", valueName: "id")) var id: Int64

    func run() async throws {
        let roll = try await store.open()
        guard let update = try await roll.jobStore.cancel(id: id) else {
            throw CommandFailure(description: "jobs: no job with id \(id)", kind: .notFound)
        }
        // Decided by the update itself: a job already final (or cancelled by another caller at
        // the same moment) is reported in the state it is in.
        guard update.changed else {
            throw CommandFailure(description: "job \(id) is \(update.job.state.rawValue); nothing to cancel", kind: .conflict)
        }
        try StandardStream.output.write(JobJSON.bytes(update.job) + [0x0A])
    }
}
