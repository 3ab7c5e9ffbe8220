/// Which posts a listing wants, in which order and which page; the catalog applies the
/// ``VisibilityRule`` for the viewer inside the same query.
public struct PostQuery: Sendable, Equatable {
    /// Whose posts.
    public enum Scope: Sendable, Equatable {
        /// Every post the viewer may see.
        case all
        /// The posts of the users the viewer follows (`GET /feed/following`).
        case following
        /// One user's posts (`GET /users/{name}/videos`, `?user=`).
        case author(String)
    }

    /// The order of a page.
    public enum Order: String, Sendable, Equatable, CaseIterable {
        /// Newest first (ids descending): the default, and the only order a cursor pages.
        case newest
        /// Oldest first.
        case oldest
        /// Most liked first, then newest.
        case mostLiked
        /// Least liked first, then oldest.
        case leastLiked
    }

    /// Whose posts.
    public var scope: Scope
    /// Only posts with this hashtag (lowercase, no `#`).
    public var tag: String?
    /// Only posts whose description or author holds every one of these words (lowercased),
    /// inside a longer word too, as Pexels' search finds them.
    public var words: [String] = []
    /// The order.
    public var order: Order
    /// With ``Order/newest``: only posts with an id below this one (the cursor).
    public var before: Int64?
    /// Posts to skip (for offset paging in the other orders).
    public var offset: Int
    /// At most this many posts.
    public var limit: Int

    /// A query; by default the newest 20 posts the viewer may see.
    public init(scope: Scope = .all, tag: String? = nil, words: [String] = [], order: Order = .newest, before: Int64? = nil, offset: Int = 0,
                limit: Int = 20) {
        self.scope = scope
        self.tag = tag
        self.words = words
        self.order = order
        self.before = before
        self.offset = offset
        self.limit = limit
    }
}
