import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `--feed PATH|URL`, `--format` and `--allow-network`: where a command's feed comes from.
struct FeedSource: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The feed file, or an http(s) URL (with --allow-network); '-' reads standard input. (default: $FEED_PATH, else the built-in demo feed)",
            valueName: "path"
        )
    )
    var feed: String?

    @Flag(help: "Allow reading over the network: an http(s) --feed, and clips that are http(s) URLs.")
    var allowNetwork = false

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

    /// Loads the feed: a file, standard input, an http(s) URL (only with --allow-network; its
    /// relative clip paths are then URLs on its server), or the built-in demo when no path was
    /// given.
    /// - Throws: `FeedError` (missing file 66, unreadable 74, invalid 65), `RemoteError`
    ///   (no --allow-network 64, HTTP 404/410 66, other failures 74, too large 65).
    /// The ``Feed/key`` the feed's likes and bookmarks are filed under, without reading it.
    var key: String { path.map(FeedCore.Feed.key(of:)) ?? FeedLoader.demoSource }

    func load() async throws -> FeedCore.Feed {
        guard let path else { return FeedLoader.demo() }
        guard let url = RemoteFeed.url(path) else { return try FeedLoader.load(path: path, format: format) }
        guard allowNetwork else { throw RemoteError.networkNotAllowed(url: path) }
        return try await RemoteFeed.load(url, format: format)
    }
}

extension FeedFormat: ExpressibleByArgument {}
