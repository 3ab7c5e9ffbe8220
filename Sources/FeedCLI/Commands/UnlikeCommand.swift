import ArgumentParser
import FeedCore

/// `feed unlike ID…`: Take the like off feed videos.
struct UnlikeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlike",
        abstract: "Take the like off feed videos.",
        discussion: """
            Marks live in $FEED_HOME/roll.sqlite; `feed list --liked` / `--bookmarked` filter by them.

            EXAMPLES:
              feed unlike 1450
              feed unlike 1450 1515
            """
    )

    @OptionGroup var marked: MarkedIDs

    func run() async throws {
        try await marked.set(.like, false)
    }
}
