import ArgumentParser
import FeedCore

/// `feed bookmark ID…`: Bookmark feed videos (kept in the roll's database).
struct BookmarkCommand: AsyncParsableCommand {
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

    func run() async throws {
        try await marked.set(.bookmark, true)
    }
}
