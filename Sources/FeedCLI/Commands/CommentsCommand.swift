import ArgumentParser
import FeedCore
import FeedRemote

/// `feed comments`: a feed's comments, all at once or one at a time like a live stream.
struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments",
        abstract: "Print the comments of a feed, or follow them like a live stream.",
        discussion: """
            Comments come from --comments, else from the feed (the built-in demo's 15 without \
            --feed), followed by those posted to `feed serve` (POST /comments), numbered after the \
            feed's highest id: the same list, with the same ids, as GET /comments. A feed without \
            comments lists only the posted ones. --follow prints one every --interval \
            seconds, cycling through them, until --count comments were printed or Ctrl-C. \
            With --follow, --json prints one object per line, like --ndjson.

            EXAMPLES:
              feed comments
              feed comments --count 3
              feed comments --follow --interval 0.5
              feed comments --comments comments.json --json | jq -r '.[].username'
            """
    )

    @OptionGroup var source: FeedSource

    @Option(help: ArgumentHelp("Read the comments from this file instead ('-' for standard input; an http(s) URL with --allow-network).", valueName: "path"))
    var comments: String?

    @Flag(help: "Print one comment every --interval seconds, cycling, until --count or Ctrl-C.")
    var follow = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds between comments with --follow; fractions allowed.", valueName: "seconds"))
    var interval: Double = 2

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many comments (without --follow: the first n).", valueName: "n"))
    var count: Int?

    @OptionGroup var output: OutputFormat

    func validate() throws {
        guard interval >= 0.001, interval <= 86_400 else {
            throw ValidationError("--interval must be 0.001…86400 seconds, not \(interval)")
        }
        if let count, count < 0 { throw ValidationError("--count must be 0 or more, not \(count)") }
    }

    func run() async throws {
        // Comments posted to `feed serve` follow the feed's own (the roll is read, never created).
        let list = Comment.merged(try await load(), stored: (try? await CatalogOptions.existingComments()) ?? [])
        let style = Style(enabled: Terminal.usesColor(.output))
        guard follow else {
            let shown = count.map { Array(list.prefix($0)) } ?? list
            try StandardStream.output.write(CommentLines.all(shown, mode: output.mode, style: style))
            return
        }
        guard !list.isEmpty else { return }
        let total = count ?? Int.max
        var printed = 0
        while printed < total {
            // One write per comment: a pipe reader sees each line as soon as it is "said".
            try StandardStream.output.write(CommentLines.line(list[printed % list.count], mode: output.mode, style: style))
            printed += 1
            if printed < total { try await Task.sleep(for: .seconds(interval)) }
        }
    }

    /// The comments to print: `--comments` (a file, or an http(s) URL with --allow-network),
    /// else the feed's own (the demo feed's without --feed), as `feed serve` lists them.
    private func load() async throws -> [Comment] {
        if let comments {
            let feed: FeedCore.Feed
            if let url = RemoteFeed.url(comments) {
                guard source.allowNetwork else { throw RemoteError.networkNotAllowed(url: comments) }
                feed = try await RemoteFeed.load(url, format: .liverComments)
            } else {
                feed = try FeedLoader.load(path: comments, format: .liverComments)
            }
            try ProblemLine.warn(feed.warnings)
            return feed.comments
        }
        let feed = try await source.load()
        try ProblemLine.warn(feed.warnings)
        return feed.comments
    }
}
