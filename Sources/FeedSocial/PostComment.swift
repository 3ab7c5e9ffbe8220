import FeedCore
import Foundation

/// A comment under a post, or a reply to one (one level: a reply has a parent, and nobody
/// replies to a reply).
public struct PostComment: Sendable, Equatable, Identifiable {
    /// The comment's id.
    public var id: Int64
    /// The post it is under.
    public var postID: Int64
    /// The comment it replies to; nil for a comment of the post itself.
    public var parentID: Int64?
    /// Who wrote it.
    public var author: String
    /// What they wrote (1 to ``maximumLength`` characters).
    public var text: String
    /// When.
    public var createdAt: Date
    /// How many replies it has (0 for a reply), exact.
    public var replies: Int64
    /// Whether the admin hid it.
    public var hidden: Bool

    /// The longest comment (TikTok's).
    public static let maximumLength = 500

    /// A comment.
    public init(id: Int64, postID: Int64, parentID: Int64?, author: String, text: String, createdAt: Date, replies: Int64 = 0, hidden: Bool = false) {
        self.id = id
        self.postID = postID
        self.parentID = parentID
        self.author = author
        self.text = text
        self.createdAt = createdAt
        self.replies = replies
        self.hidden = hidden
    }

    /// Refuses an empty comment, one over ``maximumLength`` characters, or one with a control
    /// character but a line break.
    public static func validate(_ text: String) throws(SocialError) {
        if Comment.isBlank(text) { throw SocialError.invalidField("comment", "must not be empty") }
        if text.count > maximumLength { throw SocialError.invalidField("comment", "is \(text.count) characters; at most \(maximumLength)") }
        if text.unicodeScalars.contains(where: { $0 != "\n" && PostText.isControl($0) }) {
            throw SocialError.invalidField("comment", "holds a control character; only line breaks are allowed")
        }
    }
}
