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
    /// Only videos with this hashtag (case-insensitive, exact; a leading `#` is ignored).
    public var tag: String? = nil
    /// At most this many videos (after `offset`).
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

    /// Filters, then sorts (counts highest first, ids ascending, stable), then reverses if
    /// asked, then skips `offset` and keeps `limit`.
    public func apply(to videos: [Video]) -> [Video] {
        let topic = topic?.lowercased()
        let user = user?.lowercased()
        let tag = tag.map { ($0.hasPrefix("#") ? String($0.dropFirst()) : $0).lowercased() }
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
        let end = limit.map { start + min(max($0, 0), result.count - start) } ?? result.count
        return Array(result[start..<end])
    }

    private static func stableSorted(_ videos: [Video], by before: (Video, Video) -> Bool) -> [Video] {
        videos.enumerated()
            .sorted { before($0.element, $1.element) || (!before($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
