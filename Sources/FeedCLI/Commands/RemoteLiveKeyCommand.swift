import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live key ID`.
struct RemoteLiveKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Give one of the caller's live streams a new stream key.",
        discussion: """
            EXAMPLES:
              feed remote live key 3 --json | jq -r .stream_key
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let stream = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.rotateLiveStreamKey(path: .init(id: String(id))).ok.body.json
        } }
        try RemoteLiveCommand.print(stream, json: json)
    }
}
