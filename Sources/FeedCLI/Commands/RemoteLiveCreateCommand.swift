import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live create TITLE`.
struct RemoteLiveCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a live stream on the server; prints it with its key and URLs.",
        discussion: """
            EXAMPLES:
              feed remote live create "Friday launch" --server http://127.0.0.1:8080
              feed remote live create "Studio B" --json | jq -r .stream_key
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("What viewers see it called.", valueName: "title")) var title: String
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let stream = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.createLiveStream(body: .json(.init(title: title))).created.body.json
        } }
        try RemoteLiveCommand.print(stream, json: json)
    }
}
