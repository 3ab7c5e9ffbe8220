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
        let before = try await roll.jobStore.job(id: id)
        let job = try await roll.jobStore.cancel(id: id)
        guard let before, let job else { throw CommandFailure(description: "jobs: no job with id \(id)", kind: .notFound) }
        // Decided by the state after the cancel: a job that ended meanwhile is reported as it ended.
        guard job.state == .cancelled, before.state != .cancelled else {
            throw CommandFailure(description: "job \(id) is \(job.state.rawValue); nothing to cancel", kind: .conflict)
        }
        try StandardStream.output.write(JobJSON.bytes(job) + [0x0A])
    }
}
