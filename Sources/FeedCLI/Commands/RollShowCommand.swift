import ArgumentParser
import FeedCore

/// `feed roll show ID`: every field of one recording.
struct RollShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show everything known about one recording.",
        discussion: """
            Includes the source files and options of stacked recordings. An unknown id exits 65.

            EXAMPLES:
              feed roll show 3
              feed roll show 3 --json | jq .sources
            """
    )

    @OptionGroup var store: CatalogOptions

    @Argument(help: ArgumentHelp("The recording's id.", valueName: "id"))
    var id: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        try await RollCommand.withRoll(.readOnly, store: store) { roll in
            let recording = try await roll.recording(id: id)
            if json {
                try StandardStream.output.write(RollOutput.json(recording, roll: roll) + [0x0A])
            } else {
                try StandardStream.output.write(RollOutput.record(recording, roll: roll).render(style: Style(enabled: Terminal.usesColor(.output))))
            }
        }
    }
}
