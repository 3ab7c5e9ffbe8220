import ArgumentParser
import FeedCore

/// `feed live create TITLE`: a new idle stream with a fresh key.
struct LiveCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a live stream; prints it with its stream key.",
        discussion: """
            The stream starts idle, with a key of its own (sk_ and 40 hex digits). A title is 1 to \
            200 characters, trimmed, with no control characters; another exits 64.

            EXAMPLES:
              feed live create "Friday launch"
              feed live create "Studio B" --owner ana --json
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("What viewers see it called.", valueName: "title")) var title: String
    @Option(help: ArgumentHelp("The user who owns it (a JWT's sub): they see its key over HTTP.", valueName: "user")) var owner: String?
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        try await store.withRoll { roll in
            let stream = try await LiveStreams(store: roll.catalog).create(title: title, owner: owner)
            try LiveStreamRecord.print(stream, json: json)
        }
    }
}
