import ArgumentParser
import FeedCore

/// `feed`: the root command. It only lists the subcommands; each lives in Commands/.
/// Errors from any of them become a message and an exit status in `FeedCommand.main()` (FeedCommand+Main.swift).
@main
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        // One line in `man feed`'s NAME (the install test looks for it there): under 70 columns.
        abstract: "Short-video feeds on Linux: browse, stack, keep and serve them.",
        discussion: """
            Feeds: LIVEr ({"videos":[…]}, {"comments":[…]}), FeedsApp post arrays and Pexels \
            /videos/search responses; with no --feed (and no $FEED_PATH) a command uses the \
            built-in demo feed (5 videos, 15 comments). Media: stack and sync dual-camera clips, \
            HLS ladders, the camera roll. Server: `feed serve` is the backend apps develop against; \
            `feed worker` runs its queued jobs on as many machines as share its catalog.

            EXAMPLES:
              feed list
              feed list --feed videos.json --sort likes --limit 3
              feed list --json | jq '.[].id'
              feed show 1235
              feed stack front.mp4 back.mp4 -o out.mp4 --sync audio --save
              feed roll list
              feed serve --port 8080
              feed hls out.mp4 -o ladder

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
            FaststartCommand.self,
            StoryboardCommand.self,
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
            TokenCommand.self,
            WebhooksCommand.self,
            WorkerCommand.self,
            JobsCommand.self,
            LiveCommand.self,
            PublishCommand.self,
            UnpublishCommand.self,
            RecsCommand.self,
            EventsCommand.self,
            PushCommand.self,
            RemoteCommand.self,
        ]
    )
}
