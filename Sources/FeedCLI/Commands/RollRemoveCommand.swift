import ArgumentParser
import FeedCore
import Foundation

/// `feed roll rm ID…`: remove recordings, rows and files together.
struct RollRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove recordings (the row and the file).",
        discussion: """
            All ids are checked first: an unknown one removes nothing and exits 65. SIGINT or \
            SIGTERM stops after the recording being removed (exit 130); the rest stay.

            EXAMPLES:
              feed roll rm 3
              feed roll rm 3 4 5
            """
    )

    @OptionGroup var store: CatalogOptions

    @Argument(help: ArgumentHelp("The recordings' ids.", valueName: "id"))
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one id") }
    }

    func run() async throws {
        try await RollCommand.withRoll(store: store) { roll in
            let trap = SignalTrap(signals: [SIGINT, SIGTERM])
            defer { trap.release() }
            let removed = try await roll.remove(ids: ids, isCancelled: trap.caught)
            for recording in removed {
                try StandardStream.output.write("removed \(recording.id) \(recording.fileName)\n")
            }
            if trap.caught() && removed.count < ids.count {
                throw CommandFailure(description: "interrupted: removed \(removed.count) of \(ids.count) recordings", kind: .interrupted)
            }
        }
    }
}
