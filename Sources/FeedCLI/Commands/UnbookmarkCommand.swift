import ArgumentParser
import FeedCore

/// `feed unbookmark ID…`: Take the bookmark off feed videos.
struct UnbookmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unbookmark",
        abstract: "Take the bookmark off feed videos.",
        discussion: """
            Marks live in $FEED_HOME/roll.sqlite; `feed list --liked` / `--bookmarked` filter by them.

            EXAMPLES:
              feed unbookmark 1450
              feed unbookmark 1450 1515
            """
    )

    @OptionGroup var marked: MarkedIDs

    func run() async throws {
        try await marked.set(.bookmark, false)
    }
}
