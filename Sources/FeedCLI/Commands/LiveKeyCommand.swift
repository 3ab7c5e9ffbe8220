import ArgumentParser
import FeedCore

/// `feed live key ID`: a new stream key for a stream.
struct LiveKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Give a live stream a new stream key; prints it.",
        discussion: """
            The old key stops working for the next publish (a publisher already live goes on). \
            An ended stream gets no new key (exit 65).

            EXAMPLES:
              feed live key 1
              feed live key 1 --json | jq -r .stream_key
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        try await store.withRoll { roll in
            try LiveStreamRecord.print(try await LiveStreams(store: roll.catalog).rotateKey(id: id), json: json)
        }
    }
}
