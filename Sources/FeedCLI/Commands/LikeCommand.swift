import ArgumentParser
import FeedCore

/// `feed like ID…`: Like feed videos (kept in the roll's database).
struct LikeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "like",
        abstract: "Like feed videos (kept in the roll's database).",
        discussion: """
            Marks live in $FEED_HOME/roll.sqlite; `feed list --liked` / `--bookmarked` filter by them.

            EXAMPLES:
              feed like 1450
              feed like 1450 1515
            """
    )

    @OptionGroup var marked: MarkedIDs

    func run() async throws {
        try await marked.set(.like, true)
    }
}
