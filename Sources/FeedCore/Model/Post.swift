import Foundation

/// One album post of a FeedsApp feed (Imgur-style schema); each maps to one ``Video``.
public struct Post: Sendable, Equatable, Codable {
    /// The post id, e.g. `DJDphyX`.
    public var id: FeedID
    /// The owning account.
    public var accountID: FeedID?
    /// The title.
    public var title: String
    /// The description, often empty.
    public var description: String
    /// Views.
    public var viewCount: Int
    /// Upvotes.
    public var upvoteCount: Int
    /// Comments.
    public var commentCount: Int
    /// When it was posted.
    public var createdAt: Date?
    /// The album's web page.
    public var url: URL?
    /// The images and videos, in album order.
    public var media: [Media]

    /// Creates a post.
    public init(
        id: FeedID, accountID: FeedID? = nil, title: String = "", description: String = "",
        viewCount: Int = 0, upvoteCount: Int = 0, commentCount: Int = 0, createdAt: Date? = nil,
        url: URL? = nil, media: [Media] = []
    ) {
        self.id = id
        self.accountID = accountID
        self.title = title
        self.description = description
        self.viewCount = viewCount
        self.upvoteCount = upvoteCount
        self.commentCount = commentCount
        self.createdAt = createdAt
        self.url = url
        self.media = media
    }

    /// The FeedsApp JSON field names.
    enum CodingKeys: String, CodingKey {
        case id, accountID = "account_id", title, description, viewCount = "view_count"
        case upvoteCount = "upvote_count", commentCount = "comment_count", createdAt = "created_at", url, media
    }
}
