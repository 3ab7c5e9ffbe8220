import FeedCore
import Foundation

/// Feeds read over HTTP: `--feed https://…` wherever a file works.
///
/// The body goes through ``HTTPFetch`` (≤ 5 redirects, the loader's 1 GiB cap, a deadline) and
/// then through ``FeedLoader`` like a file's bytes. The feed's ``Feed/base`` is the URL it came
/// from after redirects, so its relative clip paths are URLs on that server, and nothing in it
/// names a local file.
public enum RemoteFeed {
    /// The seconds a feed read may take, unless the caller says otherwise.
    public static let defaultTimeout: TimeInterval = 30

    /// `source` as an http(s) URL, or nil when it is a path, `-` or another scheme (which
    /// stays a path, as before: `file:` feeds are read as files by their path).
    public static func url(_ source: String) -> URL? {
        let lower = source.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        return URL(string: source)
    }

    /// Reads and loads the feed at `url`.
    /// - Throws: ``RemoteError`` (network, status, size, time) or `FeedError` (the body is not a
    ///   valid feed; problems are named after the URL).
    public static func load(_ url: URL, format: FeedFormat? = nil, allowingPaths: Bool = true,
                            timeout: TimeInterval = defaultTimeout) async throws -> Feed {
        let body = try await HTTPFetch.get(url, limit: Int64(FeedLoader.maxBytes), timeout: timeout)
        var feed = try FeedLoader.load(bytes: body.bytes, source: URLCredentials.redacted(url: url.absoluteString), format: format, allowingPaths: allowingPaths)
        feed.base = body.url
        return feed
    }

    /// Every problem of the feed at `url`, as ``FeedLoader/validate(bytes:source:format:allowingPaths:)``
    /// gives them for a file.
    /// - Throws: ``RemoteError`` when it cannot be read.
    public static func validate(_ url: URL, format: FeedFormat? = nil, allowingPaths: Bool = true,
                                timeout: TimeInterval = defaultTimeout) async throws(RemoteError) -> [FeedProblem] {
        let body = try await HTTPFetch.get(url, limit: Int64(FeedLoader.maxBytes), timeout: timeout)
        return FeedLoader.validate(bytes: body.bytes, source: URLCredentials.redacted(url: url.absoluteString), format: format, allowingPaths: allowingPaths)
    }
}
