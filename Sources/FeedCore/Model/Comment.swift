import Foundation

/// One comment of a live stream (LIVEr `comments.json`).
public struct Comment: Sendable, Equatable, Codable {
    /// The comment's id.
    public var id: FeedID
    /// Who wrote it.
    public var username: String
    /// The writer's avatar.
    public var picURL: URL?
    /// The text.
    public var comment: String

    /// Creates a comment.
    public init(id: FeedID, username: String, picURL: URL? = nil, comment: String) {
        self.id = id
        self.username = username
        self.picURL = picURL
        self.comment = comment
    }

    /// The house JSON field names (the same ones ``JSONOutput`` writes).
    enum CodingKeys: String, CodingKey {
        case id, username, picURL = "pic_url", comment
    }
}
