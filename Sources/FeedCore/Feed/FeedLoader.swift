/// Reads feed files of every ``FeedFormat`` into one ``Feed`` value.
///
/// Feeds come from anywhere, so a few rules hold for every format:
/// - Media (clips and thumbnails) may be named by an absolute URL, an absolute path, or a path
///   relative to the feed file's folder (``MediaReference``); ``Feed/location(of:)`` resolves
///   them. Paths are kept as written; with `allowingPaths: false` (apps that need URLs) a path
///   is an error. A path that looks like a URL gone wrong (`//host/a.mp4`, `x://a`) is an error.
/// - Other URLs (avatars, album pages) must be absolute.
/// - Of URL schemes, `http(s):` and `file:` are normal; `javascript:` / `vbscript:` are errors;
///   any other (`data:`, `ftp:` …) loads with a warning: feed opens none of them.
/// - String ids must be usable as file names: not empty, not `.` or `..`, no `/`, `\`, or
///   control characters (an error), since the roll and `stack` name files after them.
/// - Files over 1 GiB (`FeedFile.maxBytes`) are refused, so `/dev/zero` or an endless pipe
///   cannot take all memory.
/// - JSON nesting is capped at ``JSONParser/maxDepth``; integers beyond `Int64` and
///   numbers beyond `Double` are errors; messages quote at most 40 characters of a value.
public enum FeedLoader {
    /// The largest feed read, from a file, a pipe or a URL: 1 GiB.
    public static let maxBytes = FeedFile.maxBytes

    /// Loads the feed at `path` (`"-"` reads stdin, reported as `<stdin>`); relative media
    /// paths are taken from `path`'s folder (stdin: the current folder).
    /// `format` nil detects it from the root value.
    /// - Throws: ``FeedError/missingFile(path:)``, ``FeedError/unreadable(path:reason:)``, or
    ///   ``FeedError/invalid(_:)`` with the first problem found.
    public static func load(path: String, format: FeedFormat? = nil, allowingPaths: Bool = true) throws(FeedError) -> Feed {
        let (bytes, source) = try FeedFile.read(path)
        var feed = try load(bytes: bytes, source: source, format: format, folder: FeedFile.folder(of: path), allowingPaths: allowingPaths)
        feed.key = Feed.key(of: path)
        return feed
    }

    /// Loads a feed from `bytes`; `source` names it in problems, and relative media paths are
    /// taken from `folder` (an absolute path; nil: the current folder).
    /// - Throws: ``FeedError/invalid(_:)`` with the first problem found.
    public static func load(bytes: [UInt8], source: String, format: FeedFormat? = nil, folder: String? = nil,
                            allowingPaths: Bool = true) throws(FeedError) -> Feed {
        let outcome = decode(bytes: bytes, source: source, format: format, stopAtFirstError: true, allowingPaths: allowingPaths)
        if let error = outcome.problems.first(where: { $0.severity == .error }) { throw .invalid(error) }
        var feed = outcome.feed!
        if let folder { feed.folder = folder }
        return feed
    }

    /// The demo feed's ``Feed/source`` and ``Feed/key``.
    public static let demoSource = "<demo>"

    /// The built-in demo feed: the 5 LIVEr videos plus the 15 comments of `Fixtures/`.
    public static func demo() -> Feed {
        // The demo bytes are compiled in and covered by tests; they cannot be invalid at run time.
        var feed = try! load(bytes: DemoFeed.videosJSON, source: demoSource, format: .liver)
        feed.comments = try! load(bytes: DemoFeed.commentsJSON, source: demoSource, format: .liverComments).comments
        return feed
    }

    /// Every problem in the file at `path` (errors and warnings), in document order. With
    /// `allowingPaths` false, a media file path is an error: every reference must be a URL.
    /// - Throws: only when the file is missing or unreadable.
    public static func validate(path: String, format: FeedFormat? = nil, allowingPaths: Bool = true) throws(FeedError) -> [FeedProblem] {
        let (bytes, source) = try FeedFile.read(path)
        return validate(bytes: bytes, source: source, format: format, allowingPaths: allowingPaths)
    }

    /// Every problem in `bytes` (errors and warnings), in document order; empty when valid.
    public static func validate(bytes: [UInt8], source: String, format: FeedFormat? = nil, allowingPaths: Bool = true) -> [FeedProblem] {
        decode(bytes: bytes, source: source, format: format, stopAtFirstError: false, allowingPaths: allowingPaths).problems
    }

    /// The format the root value of `bytes` looks like, or nil when it matches none.
    static func detectFormat(_ document: JSONDocument) -> FeedFormat? {
        let root = document.root
        switch document.kind(root) {
        case .array:
            return .feedsApp
        case .object:
            if let videos = document.member("videos", of: root) {
                if document.member("page", of: root) != nil { return .pexels }
                if document.kind(videos) == .array, let first = document.elements(of: videos).first,
                   document.kind(first) == .object, document.member("video_files", of: first) != nil {
                    return .pexels
                }
                return .liver
            }
            return document.member("comments", of: root) != nil ? .liverComments : nil
        default:
            return nil
        }
    }

    private static func decode(bytes: [UInt8], source: String, format: FeedFormat?, stopAtFirstError: Bool,
                               allowingPaths: Bool) -> (feed: Feed?, problems: [FeedProblem]) {
        let document: JSONDocument
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            let position = TextPosition.of(error.offset, in: bytes)
            return (nil, [FeedProblem(file: source, line: position.line, column: position.column, path: "", message: error.message)])
        }
        var context = DecodeContext(document: document, stopAtFirstError: stopAtFirstError, allowingPaths: allowingPaths)
        var feed: Feed?
        do throws(StopDecoding) {
            feed = try decode(document, format: format, source: source, &context)
        } catch {
            feed = nil
        }
        let problems = context.problems(source: source)
        feed?.warnings = problems.filter { $0.severity == .warning }
        return (context.hasErrors ? nil : feed, problems)
    }

    private static func decode(_ document: JSONDocument, format: FeedFormat?, source: String, _ context: inout DecodeContext) throws(StopDecoding) -> Feed? {
        guard let format = format ?? detectFormat(document) else {
            try context.report(at: document.offset(document.root), path: "",
                               "unknown feed format: expected {\"videos\": [...]}, {\"comments\": [...]}, an array of posts, or a Pexels search response")
            return nil
        }
        var feed = Feed(source: source, format: format)
        if format == .feedsApp {
            (feed.posts, feed.videos) = try FeedsAppDecoder.decode(document.root, &context)
            try context.warnDuplicateIDs(in: document.root, parent: "")
            return feed
        }
        guard let root = try context.object(document.root, path: .root) else { return nil }
        switch format {
        case .liver:
            feed.videos = try LiverDecoder.videos(root, &context)
            feed.comments = try LiverDecoder.comments(root, &context, required: false)
        case .liverComments:
            feed.comments = try LiverDecoder.comments(root, &context)
        case .pexels:
            feed.videos = try PexelsDecoder.videos(root, &context)
        case .feedsApp:
            break
        }
        for parent: StaticString in ["videos", "comments"] {
            if let array = document.member(parent, of: root.node) {
                try context.warnDuplicateIDs(in: array, parent: parent.description)
            }
        }
        return feed
    }
}
