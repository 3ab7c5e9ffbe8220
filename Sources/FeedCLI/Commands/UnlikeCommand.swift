import ArgumentParser
import FeedCore

/// `feed unlike ID…`: Take the like mark off feed videos.
struct UnlikeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlike",
        abstract: "Take the like mark off feed videos.",
        discussion: "Ids are feed video ids as `feed list` shows them; marks live in $FEED_HOME/roll.sqlite."
    )

    @Argument(help: ArgumentHelp("Feed video ids.", valueName: "id"))
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one video id") }
    }

    func run() throws {
        let roll = try RollCommand.open()
        for id in ids {
            let changed = try roll.setMark(.like, false, videoID: id)
            try StandardStream.output.write(changed ? "unliked \(id)\n" : "\(id) was not liked\n")
        }
    }
}
