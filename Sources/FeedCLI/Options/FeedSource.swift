import ArgumentParser
import FeedCore
import Foundation

/// `--feed PATH` and `--format`: where a command's feed comes from.
struct FeedSource: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The feed file; '-' reads standard input. (default: $FEED_PATH, else the built-in demo feed)",
            valueName: "path"
        )
    )
    var feed: String?

    @Option(name: .long, help: "Read the feed as this format instead of detecting it from the root.")
    var format: FeedFormat?

    func validate() throws {
        if format != nil && path == nil {
            throw ValidationError("--format needs a feed to read: add --feed PATH (or set FEED_PATH)")
        }
    }

    /// The path to read: `--feed`, else a non-empty `$FEED_PATH`, else nil for the demo feed.
    var path: String? {
        if let feed { return feed }
        if let environment = ProcessInfo.processInfo.environment["FEED_PATH"], !environment.isEmpty {
            return environment
        }
        return nil
    }

    /// Loads the feed, or the built-in demo when no path was given.
    /// - Throws: `FeedError` (missing file 66, unreadable 74, invalid 65).
    func load() throws(FeedError) -> FeedCore.Feed {
        guard let path else { return FeedLoader.demo() }
        return try FeedLoader.load(path: path, format: format)
    }
}

extension FeedFormat: ExpressibleByArgument {}
