import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live show ID`.
struct RemoteLiveShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one of the caller's live streams on the server.",
        discussion: """
            EXAMPLES:
              feed remote live show 3 --server http://127.0.0.1:8080
              feed remote live show 3 --json | jq -r .state
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let stream = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.getLiveStream(path: .init(id: String(id))).ok.body.json
        } }
        try RemoteLiveCommand.print(stream, json: json)
    }
}
