import ArgumentParser
import FeedCore

/// `feed`: the root command. It only lists the subcommands; each lives in Commands/.
/// Errors from any of them become a message and an exit status in `FeedCommand.main()` (FeedCommand+Main.swift).
@main
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Browse and check short-video feeds.",
        discussion: """
            Reads LIVEr ({"videos":[…]}, {"comments":[…]}), FeedsApp post arrays and Pexels \
            /videos/search responses. With no --feed (and no $FEED_PATH) every command uses the \
            built-in demo feed: 5 videos and 15 comments.

            EXAMPLES:
              feed list                                 the demo feed as a table
              feed list --feed videos.json --sort likes --limit 3
              feed list --json | jq '.[].id'            machine-readable output
              feed show 1235                            every field of one video
              feed comments --follow --interval 0.5     a live-stream style ticker
              feed validate feeds/*.json                every problem of every file

            \(ExitStatusTable.text)
            """,
        version: "0.1.0",
        subcommands: [
            ListCommand.self,
            ShowCommand.self,
            CommentsCommand.self,
            ValidateCommand.self,
            ScrapeCommand.self,
            ProbeCommand.self,
            StackCommand.self,
            SyncCommand.self,
            HLSCommand.self,
            RollCommand.self,
            LikeCommand.self,
            UnlikeCommand.self,
            BookmarkCommand.self,
            UnbookmarkCommand.self,
            PlayCommand.self,
            CacheCommand.self,
            ServeCommand.self,
            WorkerCommand.self,
            JobsCommand.self,
        ]
    )
}
