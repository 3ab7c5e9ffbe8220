import ArgumentParser
import FeedCore

/// `feed bookmark ID…`: Mark feed videos: bookmark them (kept in the roll's database).
struct BookmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark",
        abstract: "Mark feed videos: bookmark them (kept in the roll's database).",
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
            let changed = try roll.setMark(.bookmark, true, videoID: id)
            try StandardStream.output.write(changed ? "bookmarked \(id)\n" : "\(id) was already bookmarked\n")
        }
    }
}
