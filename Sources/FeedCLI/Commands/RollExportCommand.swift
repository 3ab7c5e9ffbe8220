import ArgumentParser
import FeedCore

/// `feed roll export`: the roll as a LIVEr feed that `feed list --feed` reads.
struct RollExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the roll as a {\"videos\":[…]} feed.",
        discussion: """
            Newest first. id is the recording id, video the file as a file:// URL, description \
            the title or file name, username and topic "roll", plus duration, width and height.

            EXAMPLES:
              feed roll export > roll.json
              feed roll export > roll.json && feed list --feed roll.json
            """
    )

    @OptionGroup var store: CatalogOptions

    func run() async throws {
        try StandardStream.output.write(try await RollCommand.withRoll(.readOnly, store: store) { try await $0.exportFeed() })
    }
}
