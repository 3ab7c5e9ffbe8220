import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live end ID`.
struct RemoteLiveEndCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end",
        abstract: "End one of the caller's live streams for good (its publisher is disconnected).",
        discussion: """
            EXAMPLES:
              feed remote live end 3 --server http://127.0.0.1:8080
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let stream = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.endLiveStream(path: .init(id: String(id))).ok.body.json
        } }
        try RemoteLiveCommand.print(stream, json: json)
    }
}
