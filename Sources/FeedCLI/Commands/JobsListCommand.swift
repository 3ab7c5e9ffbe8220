import ArgumentParser
import FeedCore

/// `feed jobs list` (also plain `feed jobs`): jobs newest first.
struct JobsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List jobs, newest first.",
        discussion: """
            The table shows id, state, kind, attempts, progress, the worker (HOST:PID, HOST~pidnsN:PID in a container) that holds or \
            last held it, the recording it made, and the error. --json / --ndjson give id, kind, \
            state, progress, recording_id, error, attempts, max_attempts, worker, created_at, \
            updated_at, run_at, started_at, lease_expires_at (ISO 8601 UTC).

            EXAMPLES:
              feed jobs list
              feed jobs list --state failed --json | jq -r ".[].error"
              feed jobs list --limit 0 --ndjson
            """
    )

    @OptionGroup var store: CatalogOptions
    @Option(help: ArgumentHelp("Only jobs in this state: \(Job.State.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "state"))
    var state: Job.State?
    @Option(parsing: .unconditional, help: "At most this many jobs (0 = all).") var limit = 50
    @OptionGroup var output: OutputFormat

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        try await store.withRoll(.readOnly) { roll in
            try Self.write(try await roll.catalog.jobs(state: state, limit: limit == 0 ? nil : limit), mode: output.mode)
        }
    }

    /// Writes `jobs` to stdout in `mode` (also `feed remote jobs`'s).
    static func write(_ jobs: [Job], mode: OutputFormat.Mode) throws {
        switch mode {
        case .json:
            try StandardStream.output.write(JobJSON.array(jobs))
        case .ndjson:
            try StandardStream.output.write(jobs.flatMap { JobJSON.bytes($0) + [0x0A] })
        case .text:
            try StandardStream.output.write(table(jobs).render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
        }
    }

    /// The table of `jobs`.
    static func table(_ jobs: [Job]) -> Table {
        var table = Table(columns: [
            .init(header: "ID", rightAligned: true), .init(header: "STATE"), .init(header: "KIND"),
            .init(header: "TRIES", rightAligned: true), .init(header: "DONE", rightAligned: true), .init(header: "WORKER"),
            .init(header: "RECORDING", rightAligned: true), .init(header: "UPDATED"), .init(header: "ERROR", flexible: true),
        ])
        for job in jobs {
            table.rows.append([
                String(job.id), job.state.rawValue, job.kind, "\(job.attempts)/\(job.maxAttempts)",
                "\(Int(saturating: (job.progress * 100).rounded())) %", job.worker ?? "-", job.recordingID.map(String.init) ?? "-",
                String(Recording.iso8601(job.updatedAt).prefix(19)).replacingOccurrences(of: "T", with: " "), job.error ?? "",
            ])
        }
        return table
    }
}

extension Job.State: ExpressibleByArgument {}
