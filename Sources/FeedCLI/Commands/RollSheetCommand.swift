import ArgumentParser
import FeedCore

/// `feed roll sheet -o SHEET.png`: the camera-roll grid as one picture.
struct RollSheetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Draw a contact sheet: every recording's thumbnail, labelled with id and duration.",
        discussion: """
            Newest first, left to right, top to bottom; each cell is a 180x320 thumbnail \
            (letterboxed) above a label. Writes a PNG and prints its path and size; an existing \
            -o is refused with 73 unless --force.

            EXAMPLES:
              feed roll sheet -o sheet.png
              feed roll sheet -o sheet.png --columns 3
            """
    )

    @OptionGroup var store: CatalogOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write.", valueName: "sheet.png"))
    var output: String

    @Flag(help: "Replace -o's file if it exists.")
    var force = false

    @Option(parsing: .unconditional, help: "Thumbnails per row.")
    var columns = 2

    @Option(parsing: .unconditional, help: "At most this many recordings, newest first (0 = all).")
    var limit = 0

    func validate() throws {
        if !(1...100).contains(columns) { throw ValidationError("--columns must be 1…100, not \(columns)") }
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        // An existing -o is refused (73) unless --force, before any work.
        try OutputTarget(path: output, force: force).check()
        try await RollCommand.withRoll(.readOnly, store: store) { roll in
            let sheet = try await roll.saveContactSheet(to: output, columns: columns, limit: limit == 0 ? nil : limit)
            try StandardStream.output.write("\(output)  \(sheet.width)x\(sheet.height)  \(sheet.count) recordings\n")
        }
    }
}
