/// Filtering, sorting and paging of videos; a pure value, applied with ``apply(to:)``.
public struct FeedQuery: Sendable, Equatable {
    /// The order of the result.
    public enum Sort: String, CaseIterable, Sendable {
        /// File order.
        case feed
        /// Most liked first.
        case likes
        /// Most viewers first.
        case viewers
        /// Ids ascending (numbers before strings).
        case id
    }

    /// The order; ties keep file order.
    public var sort: Sort = .feed
    /// Flips the order.
    public var reverse = false
    /// Only videos with this topic (case-insensitive, exact).
    public var topic: String? = nil
    /// Only videos by this username (case-insensitive, exact).
    public var user: String? = nil
    /// Only videos with this hashtag (case-insensitive, exact; leading `#`s are ignored, so
    /// `food`, `#food` and `##food` are one tag: see ``hashtag(_:)``).
    public var tag: String? = nil
    /// At most this many videos (after `offset`); nil or 0 for all of them, in every command
    /// and over HTTP alike (see ``pageSize(_:)``).
    public var limit: Int? = nil
    /// Skip this many videos of the sorted, filtered list.
    public var offset = 0

    /// Creates a query; the defaults return every video in file order.
    public init(
        sort: Sort = .feed, reverse: Bool = false, topic: String? = nil, user: String? = nil,
        tag: String? = nil, limit: Int? = nil, offset: Int = 0
    ) {
        self.sort = sort
        self.reverse = reverse
        self.topic = topic
        self.user = user
        self.tag = tag
        self.limit = limit
        self.offset = offset
    }

    /// The hashtag `text` names: without its leading `#`s; nil when nothing is left (`#`),
    /// which a caller refuses as a usage error.
    public static func hashtag(_ text: String) -> String? {
        let tag = text.drop(while: { $0 == "#" })
        return tag.isEmpty ? nil : String(tag)
    }

    /// How many videos a page holds when `limit` was asked for: nil (all) for none or 0.
    public static func pageSize(_ limit: Int?) -> Int? {
        limit == 0 ? nil : limit
    }

    /// Why this query cannot run, in words naming the parameter as `name(for:)` spells it, or
    /// nil: a negative `limit` or `offset`, a tag of nothing but `#`.
    public func problem(naming name: (String) -> String = { $0 }) -> String? {
        if let limit, limit < 0 { return "\(name("limit")) must be 0 or more, not \(limit)" }
        if offset < 0 { return "\(name("offset")) must be 0 or more, not \(offset)" }
        if let tag, Self.hashtag(tag) == nil { return "\(name("tag")) needs a hashtag after its '#', such as food" }
        return nil
    }

    /// Filters, then sorts (counts highest first, ids ascending, stable), then reverses if
    /// asked, then skips `offset` and keeps `limit`.
    public func apply(to videos: [Video]) -> [Video] {
        let topic = topic?.lowercased()
        let user = user?.lowercased()
        let tag = tag.map { (Self.hashtag($0) ?? "").lowercased() }
        var result = videos.filter { video in
            if let topic, video.topic?.lowercased() != topic { return false }
            if let user, video.username.lowercased() != user { return false }
            if let tag, !video.hashtags.contains(where: { $0.lowercased() == tag }) { return false }
            return true
        }
        switch sort {
        case .feed: break
        case .likes: result = Self.stableSorted(result) { $0.likes > $1.likes }
        case .viewers: result = Self.stableSorted(result) { $0.viewers > $1.viewers }
        case .id: result = Self.stableSorted(result) { $0.id < $1.id }
        }
        if reverse { result.reverse() }
        let start = min(max(offset, 0), result.count)
        // `limit` may be anything up to Int.max (`?limit=9223372036854775807`): never added to `start`.
        let end = Self.pageSize(limit).map { start + min(max($0, 0), result.count - start) } ?? result.count
        return Array(result[start..<end])
    }

    private static func stableSorted(_ videos: [Video], by before: (Video, Video) -> Bool) -> [Video] {
        videos.enumerated()
            .sorted { before($0.element, $1.element) || (!before($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
