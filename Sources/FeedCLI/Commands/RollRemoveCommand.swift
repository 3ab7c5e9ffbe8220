import ArgumentParser
import FeedCore

/// `feed roll rm ID…`: remove recordings, rows and files together.
struct RollRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove recordings (the row and the file).",
        discussion: "All ids are checked first: an unknown one removes nothing and exits 65."
    )

    @Argument(help: ArgumentHelp("The recordings' ids.", valueName: "id"))
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one id") }
    }

    func run() throws {
        let roll = try RollCommand.open()
        for recording in try roll.remove(ids: ids) {
            try StandardStream.output.write("removed \(recording.id) \(recording.fileName)\n")
        }
    }
}
