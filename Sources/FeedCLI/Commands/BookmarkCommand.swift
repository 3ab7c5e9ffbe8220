import ArgumentParser
import FeedCore

/// `feed bookmark ID…`: Bookmark feed videos (kept in the roll's database).
struct BookmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark",
        abstract: "Bookmark feed videos (kept in the roll's database).",
        discussion: """
            Marks live in $FEED_HOME/roll.sqlite; `feed list --liked` / `--bookmarked` filter by them.

            EXAMPLES:
              feed bookmark 1450
              feed bookmark 1450 1515
            """
    )

    @OptionGroup var marked: MarkedIDs

    func run() throws {
        try marked.set(.bookmark, true)
    }
}
