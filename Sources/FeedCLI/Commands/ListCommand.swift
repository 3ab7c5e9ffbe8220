import ArgumentParser
import FeedCore

/// `feed list`: the videos of a feed as a table, JSON or NDJSON, filtered, sorted and paged.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the videos of a feed.",
        discussion: """
            The table shows id, user, topic, viewers, likes and the description. On a terminal \
            the description is cut to its width ($COLUMNS when the size cannot be read, else 80 \
            columns); piped or redirected output is never cut, whatever $COLUMNS says. --json and --ndjson give every \
            field: id, user_id, username, profile_pic_url, description, topic, viewers, likes, \
            video, thumbnail, hashtags, duration, width, height (null where the feed has none).

            EXAMPLES:
              feed list
              feed list --sort likes --limit 3
              feed list --feed videos.json --tag food --json
              feed list --feed FeedsJSON.json    # an album feed: one row per post
              feed list --liked                  # marked with 'feed like ID' (♥)
              curl -s https://example.com/feed.json | feed list --feed - --ndjson
            """
    )

    @OptionGroup var source: FeedSource
    @OptionGroup var query: VideoQueryOptions
    @OptionGroup var marks: MarkFilterOptions
    @OptionGroup var output: OutputFormat

    func run() async throws {
        let feed = try await source.load()
        try ProblemLine.warn(feed.warnings)
        if feed.videos.isEmpty && !feed.comments.isEmpty {
            // Exit 0 with no rows, as for any empty feed, but say why the table is empty.
            try StandardStream.error.write("feed: \(feed.source) holds comments, not videos; see 'feed comments --feed \(feed.source)'\n")
        }
        let videos = query.query.apply(to: try await marks.apply(to: feed))
        // The ♥ column reads the roll only if one exists: listing never creates a roll.
        let liked = output.mode == .text
            ? Set(((try? await CatalogOptions.existingMarks(feed: feed.key)) ?? [:]).filter { $0.value.contains(.like) }.keys) : []
        try VideoList.write(videos, mode: output.mode, liked: liked)
    }
}
