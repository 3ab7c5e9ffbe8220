import ArgumentParser
import FeedCore

/// `feed jobs`: the job queue. With no subcommand it lists (same as `feed jobs list`).
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "The job queue: list, queue, retry and cancel jobs.",
        discussion: """
            Jobs are rows of the roll's catalog (SQLite, or PostgreSQL with --catalog): queued → \
            running → done | failed | cancelled; a job whose worker's lease keeps expiring is dead \
            after its max attempts. `feed serve` and `feed worker` run them. An unknown id exits 65.

            EXAMPLES:
              feed jobs                  # the 50 newest
              feed jobs --state dead --json | jq '.[].error'
              feed jobs add thumb '{"recording": 3}'
              feed jobs retry 12
              feed jobs cancel 13
            """,
        subcommands: [JobsListCommand.self, JobsAddCommand.self, JobsRetryCommand.self, JobsCancelCommand.self],
        defaultSubcommand: JobsListCommand.self
    )
}
