import FeedSocial

/// One video of a For You page: the post, as the viewer may see it, and why it was picked.
public struct Recommendation: Sendable, Equatable {
    /// The post.
    public var post: SocialPost
    /// Why.
    public var reason: RecsReason

    /// A recommendation.
    public init(post: SocialPost, reason: RecsReason) {
        self.post = post
        self.reason = reason
    }
}

/// A page of For You and the cursor of the next one.
public struct ForYouPage: Sendable, Equatable {
    /// The videos, in order.
    public var items: [Recommendation]
    /// The next page's cursor.
    public var next: ForYouCursor
    /// The model version that ranked it (nil: none trained yet, so trending).
    public var modelVersion: Int64?

    /// A page.
    public init(items: [Recommendation], next: ForYouCursor, modelVersion: Int64?) {
        self.items = items
        self.next = next
        self.modelVersion = modelVersion
    }
}
