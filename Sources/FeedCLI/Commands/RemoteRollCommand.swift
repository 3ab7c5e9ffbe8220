import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote roll`: `feed roll list` of the server's roll (`GET /roll`, every page).
struct RemoteRollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roll",
        abstract: "List the server's roll, as 'feed roll list' does.",
        discussion: """
            Newest first, page after page (GET /roll). --json and --ndjson carry the same fields as \
            'feed roll list --json', with file the recording's URL on the server.

            EXAMPLES:
              feed remote roll --server http://127.0.0.1:8080
              FEED_SERVER=http://127.0.0.1:8080 feed remote roll --limit 0 --json
            """
    )

    @OptionGroup var server: ServerOptions
    @Option(parsing: .unconditional, help: "At most this many recordings (0 = all).") var limit = 50
    @OptionGroup var output: OutputFormat

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        let rows: [(Recording, String)] = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            var rows: [(Recording, String)] = [], cursor: String?
            repeat {
                let want = limit == 0 ? 1000 : min(1000, limit - rows.count)
                let page = try await remote.client.api.listRecordings(query: .init(limit: want, cursor: cursor)).ok.body.json
                rows += page.recordings.map { (Recording(remote: $0), $0.url) }
                cursor = page.nextCursor
            } while cursor != nil && (limit == 0 || rows.count < limit)
            return rows
        } }
        let recordings = rows.map(\.0)
        let urls = Dictionary(rows.map { ($0.0.id, $0.1) }, uniquingKeysWith: { first, _ in first })
        try RollOutput.write(recordings, mode: output.mode) { urls[$0.id] ?? "" }
    }
}
