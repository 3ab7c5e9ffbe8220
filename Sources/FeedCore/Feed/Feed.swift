import Foundation

/// What every feed format maps into.
public struct Feed: Sendable, Equatable {
    /// The file name as given (`"videos.json"`, `"<stdin>"`, `"<demo>"`).
    public var source: String
    /// What this feed's likes and bookmarks are filed under, so that id 100 of one feed is not
    /// id 100 of another: the file's absolute path with symbolic links resolved, a remote
    /// feed's URL as given, `<demo>`, `<stdin>` (see ``key(of:)``).
    public var key: String
    /// The format the file was read as.
    public var format: FeedFormat
    /// The playable items, in file order (FeedsApp: one per post).
    public var videos: [Video]
    /// Live comments (LIVEr comments files and the demo feed).
    public var comments: [Comment]
    /// FeedsApp posts, in file order; empty for the other formats.
    public var posts: [Post]
    /// Problems that do not stop loading, such as duplicate ids.
    public var warnings: [FeedProblem]
    /// The absolute folder that relative media paths are taken from: the feed file's folder,
    /// or the current folder (when loaded) for standard input and the demo feed.
    public var folder: String
    /// The URL a remote feed was read from (after redirects); nil for files, standard input
    /// and the demo. When set, ``location(of:)`` resolves against it instead of ``folder``.
    public var base: URL?

    /// Creates a feed; `folder` nil means the current folder.
    public init(
        source: String, format: FeedFormat, videos: [Video] = [], comments: [Comment] = [],
        posts: [Post] = [], warnings: [FeedProblem] = [], folder: String? = nil
    ) {
        self.source = source
        self.key = source
        self.format = format
        self.videos = videos
        self.comments = comments
        self.posts = posts
        self.warnings = warnings
        self.folder = folder ?? FeedFile.currentFolder()
    }

    /// The ``key`` of the feed read from `path` (as `--feed` and `$FEED_PATH` give it), without
    /// reading it: `<stdin>` for `-`, the URL as written for `http(s)://`, else the file's
    /// absolute path with `..` and symbolic links resolved (as written, made absolute, when it
    /// cannot be resolved).
    public static func key(of path: String) -> String {
        if path == "-" { return "<stdin>" }
        let lower = path.prefix(8).lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return URL(string: path)?.absoluteString ?? path }
        let absolute = MediaReference.absolute(path, in: FeedFile.currentFolder())
        guard let resolved = realpath(absolute, nil) else { return absolute }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where `reference` points: a path taken from ``folder`` (`..` resolved), a `file:` URL's
    /// path, or any other URL as written. The one place feed media is resolved, for `play`,
    /// `probe` and servers alike.
    /// A remote feed's (``base`` set) relative paths are taken from its URL, as a browser
    /// resolves links; nothing in it ever names a local file.
    public func location(of reference: MediaReference) -> MediaLocation {
        guard let base else { return reference.resolved(against: folder) }
        return reference.resolved(against: base)
    }

    /// The video whose id is `text`: as a parsed id (`42` matches the number 42), or as
    /// written, so a string id that looks like a number (`"0042"`) is still found.
    public func video(id text: String) -> Video? {
        let wanted = FeedID(parsing: text)
        return videos.first { $0.id == wanted || $0.id.description == text }
    }

    /// ``video(id:)`` for each of `ids`, in order: a walk of the feed per id for a few, one
    /// ``VideoIndex`` for more (`feed like` of a thousand ids on a 100,000-video feed).
    public func videos(ids: [String]) -> [Video?] {
        guard ids.count > 4 else { return ids.map { video(id: $0) } }
        let index = VideoIndex(videos)
        return ids.map { index.video(id: $0) }
    }
}
