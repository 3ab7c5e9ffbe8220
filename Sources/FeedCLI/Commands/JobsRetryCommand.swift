import ArgumentParser
import FeedCore
import FeedServer

/// `feed jobs retry ID`: queues a failed, dead or cancelled job again.
struct JobsRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue a failed, dead or cancelled job again (its attempts start over); prints it as JSON.",
        discussion: "A job that is queued, running or done is left as it is and exits 65 naming its state."
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The job's id.", valueName: "id")) var id: Int64

    func run() async throws {
        let roll = try await store.open()
        guard let update = try await roll.jobStore.retry(id: id) else {
            throw CommandFailure(description: "jobs: no job with id \(id)", kind: .notFound)
        }
        // Decided by the update itself, so two retries of one job at once queue it once.
        guard update.changed else {
            throw CommandFailure(description: "job \(id) is \(update.job.state.rawValue); only a failed, dead or cancelled job can be retried", kind: .conflict)
        }
        try StandardStream.output.write(JobJSON.bytes(update.job) + [0x0A])
    }
}
