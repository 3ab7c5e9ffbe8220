import ArgumentParser
import FeedCore

/// `feed show ID`: every field of one video, or of one post in an album feed.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one video (or post).",
        discussion: """
            Prints key: value lines; absent fields show as '-'. In a FeedsApp album feed the \
            post is shown, with each media item as media[i].field. An id not in the feed \
            exits with status 65.

            EXAMPLES:
              feed show 1235
              feed show 1235 --json | jq .video
              feed show DJDphyX --feed FeedsJSON.json
              feed show 7 --feed https://example.com/videos.json --allow-network
            """
    )

    @Argument(help: ArgumentHelp("The id of the video or post.", valueName: "id"))
    var id: String

    @OptionGroup var source: FeedSource

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let feed = try await source.load()
        try ProblemLine.warn(feed.warnings)
        let wanted = FeedID(parsing: id)
        // Also match by text, so a string id that looks like a number ("0042") is still found.
        let matches = { (candidate: FeedID) in candidate == wanted || candidate.description == id }
        let style = Style(enabled: Terminal.usesColor(.output))
        if let post = feed.posts.first(where: { matches($0.id) }) {
            try StandardStream.output.write(json ? ItemRecord.json(post) : Array(ItemRecord.record(post).render(style: style).utf8))
        } else if let video = feed.videos.first(where: { matches($0.id) }) {
            try StandardStream.output.write(json ? ItemRecord.json(video) : Array(ItemRecord.record(video).render(style: style).utf8))
        } else {
            throw FeedError.unknownID(wanted, source: feed.source)
        }
    }
}
