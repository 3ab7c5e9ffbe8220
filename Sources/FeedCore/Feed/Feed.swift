/// What every feed format maps into.
public struct Feed: Sendable, Equatable {
    /// The file name as given (`"videos.json"`, `"<stdin>"`, `"<demo>"`).
    public var source: String
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

    /// Creates a feed.
    public init(
        source: String, format: FeedFormat, videos: [Video] = [], comments: [Comment] = [],
        posts: [Post] = [], warnings: [FeedProblem] = []
    ) {
        self.source = source
        self.format = format
        self.videos = videos
        self.comments = comments
        self.posts = posts
        self.warnings = warnings
    }
}
