import ArgumentParser
import FeedCore

/// `feed live show ID`: every field of one stream, its key included.
struct LiveShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one live stream, its key included.",
        discussion: """
            EXAMPLES:
              feed live show 1
              feed live show 1 --json | jq -r .state
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        try await store.withRoll(.readOnly) { roll in
            try LiveStreamRecord.print(try await LiveStreams(store: roll.catalog).stream(id: id), json: json)
        }
    }
}
