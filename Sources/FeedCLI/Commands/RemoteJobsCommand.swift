import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote jobs`: `feed jobs list` of the server's queue (`GET /jobs`).
struct RemoteJobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List the server's jobs, newest first, as 'feed jobs list' does.",
        discussion: """
            The same table and --json / --ndjson fields as 'feed jobs list'.

            EXAMPLES:
              feed remote jobs --server http://127.0.0.1:8080
              export FEED_SERVER=http://127.0.0.1:8080
              feed remote jobs --state failed --json | jq -r '.[].error'
            """
    )

    @OptionGroup var server: ServerOptions
    @Option(help: ArgumentHelp("Only jobs in this state: \(Job.State.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "state"))
    var state: Job.State?
    @Option(parsing: .unconditional, help: "At most this many jobs (1…1000).") var limit = 50
    @OptionGroup var output: OutputFormat

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1…1000, not \(limit)") }
    }

    func run() async throws {
        let jobs = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.listJobs(query: .init(state: state.flatMap { .init(rawValue: $0.rawValue) }, limit: limit))
                .ok.body.json.jobs.map(Job.init(remote:))
        } }
        try JobsListCommand.write(jobs, mode: output.mode)
    }
}
