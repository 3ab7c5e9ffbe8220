import ArgumentParser
import FeedCore

/// `feed unbookmark ID…`: Take the bookmark mark off feed videos.
struct UnbookmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unbookmark",
        abstract: "Take the bookmark mark off feed videos.",
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
            let changed = try roll.setMark(.bookmark, false, videoID: id)
            try StandardStream.output.write(changed ? "unbookmarked \(id)\n" : "\(id) was not bookmarked\n")
        }
    }
}
