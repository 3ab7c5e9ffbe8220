import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live list`.
struct RemoteLiveListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the caller's live streams on the server, newest first.",
        discussion: """
            EXAMPLES:
              feed remote live list --server http://127.0.0.1:8080
              feed remote live list --json | jq -r '.[].playback_url'
            """
    )

    @OptionGroup var server: ServerOptions
    @Option(parsing: .unconditional, help: "At most this many (1…100).") var limit = 20
    @Flag(help: "One JSON array.") var json = false

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be 1…100, not \(limit)") }
    }

    func run() async throws {
        let streams = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.listLiveStreams(query: .init(limit: limit)).ok.body.json.streams
        } }
        if json {
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (index, stream) in streams.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                LiveStreamJSON.encode(LiveStream(remote: stream), showKey: false, extra: RemoteLiveCommand.urls(stream), into: &out)
            }
            return try StandardStream.output.write(out + Array("]\n".utf8))
        }
        var table = Table(columns: [
            .init(header: "ID", rightAligned: true), .init(header: "STATE"), .init(header: "TITLE", flexible: true), .init(header: "PLAYBACK"),
        ])
        for stream in streams { table.rows.append([String(stream.id), stream.state.rawValue, stream.title, stream.playbackUrl]) }
        try StandardStream.output.write(table.render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
    }
}
