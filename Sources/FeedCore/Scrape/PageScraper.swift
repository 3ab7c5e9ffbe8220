import Crypto
import Foundation

/// Turns a web page into a feed: its videos in document order, without duplicates, each a
/// LIVEr video (`{"videos":[…]}` once written with ``LiverJSON``).
///
/// Found: `<link rel~=prefetch as=video href>` (how some apps build their feed from a public
/// page), `<video src>`, `<video><source src>`, and `<meta property=og:video|og:video:url
/// content>`. Relative URLs are resolved against the `<base href>` when the page has one (itself
/// resolved against the page's URL), else against the page's URL (`--base` overrides it; a
/// file's URL is `file:///…`). Only http, https and file URLs are kept (`data:`, `blob:` and
/// `javascript:` are not clips), and from a page fetched over the network only http and https:
/// a remote page never makes the feed name a local file (a `file:` link or `<base>` is dropped). Duplicates are the same URL after resolution; the first wins.
///
/// Each video's id is `w` and 16 hex digits of the SHA-256 of its URL, so scraping the page
/// again gives the same ids and likes stay with their videos. `username` is the host the clip
/// comes from (`local` for files); `description` the page's title; `thumbnail` the poster of
/// the `<video>` it came from.
public enum PageScraper {
    /// The largest page read, file or URL: real pages are a few MB, and parsing costs up to 80
    /// times a page's size in memory.
    public static let maxPageBytes = 16 << 20

    /// The videos of `bytes`, the HTML of `page` (a name for messages), relative URLs resolved
    /// against `base` (the page's URL, or `--base`); `remote`: the page came over the network,
    /// so only http and https URLs are kept. Parsing gets `timeout` seconds when given.
    /// - Throws: ``ScrapeError/noVideos(page:)`` when it has none, ``ScrapeError/pageTooLarge(page:limit:)``
    ///   over ``maxPageBytes``, ``ScrapeError/tooComplex(page:limit:)``, ``ScrapeError/timedOut(page:seconds:)``,
    ///   ``ScrapeError/parse(page:)``.
    public static func videos(in bytes: [UInt8], page: String, base: URL?, remote: Bool = false,
                              timeout: Double? = nil) throws(ScrapeError) -> [Video] {
        guard bytes.count <= maxPageBytes else { throw .pageTooLarge(page: page, limit: maxPageBytes) }
        let parsed = try HTMLPage(bytes, page: page, timeout: timeout)
        let schemes: Set<String> = remote ? ["http", "https"] : ["http", "https", "file"]
        // <base href> is itself relative to the page's URL; one of a scheme not kept is ignored.
        let effective = parsed.base.flatMap { URL(string: $0.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: base)?.absoluteURL }
            .flatMap { schemes.contains($0.scheme?.lowercased() ?? "") ? $0 : nil } ?? base
        let title = parsed.title?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
        var seen = Set<String>()
        var videos: [Video] = []
        for item in parsed.items {
            guard let url = resolve(item.url, against: effective, schemes: schemes), seen.insert(url.absoluteString).inserted else { continue }
            var video = Video(id: id(of: url), username: url.host.flatMap { $0.isEmpty ? nil : $0 } ?? "local", description: title)
            video.videoReference = MediaReference(url: url)
            video.thumbnailReference = item.poster.flatMap { resolve($0, against: effective, schemes: schemes) }.map(MediaReference.init(url:))
            videos.append(video)
        }
        if videos.isEmpty { throw .noVideos(page: page) }
        return videos
    }

    /// The videos of the page in file `path` (`-` reads stdin; at most ``maxPageBytes``).
    /// Relative URLs resolve against `base`, else the file's own `file://` URL (stdin: the
    /// current folder's).
    /// - Throws: ``FeedError`` for a missing, unreadable or too large file, or the ``ScrapeError``s of
    ///   ``videos(in:page:base:remote:timeout:)``.
    public static func videos(inFile path: String, base: URL?, remote: Bool = false, timeout: Double? = nil) throws -> [Video] {
        let (bytes, source) = try FeedFile.read(path, limit: maxPageBytes, as: "a page")
        let own = path == "-"
            ? URL(fileURLWithPath: FeedFile.currentFolder(), isDirectory: true)
            : URL(fileURLWithPath: FeedFile.folder(of: path), isDirectory: true).appendingPathComponent((path as NSString).lastPathComponent)
        return try videos(in: bytes, page: source, base: base ?? own, remote: remote, timeout: timeout)
    }

    /// `text` (an attribute value, HTML's whitespace trimmed) as an absolute URL of one of
    /// `schemes` (http, https, file), or nil.
    static func resolve(_ text: String, against base: URL?, schemes: Set<String> = ["http", "https", "file"]) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), schemes.contains(scheme) else { return nil }
        if scheme != "file" && (url.host ?? "").isEmpty { return nil }
        return url
    }

    /// `w` and the first 16 hex digits of the SHA-256 of the URL's text.
    static func id(of url: URL) -> FeedID {
        let digest = SHA256.hash(data: Data(url.absoluteString.utf8))
        return FeedID(parsing: "w" + digest.prefix(8).map { String(format: "%02x", $0) }.joined())
    }
}
