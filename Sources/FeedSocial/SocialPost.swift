import Foundation

/// A published video: one of the roll's recordings, made a post by its author, with the
/// counts the catalog keeps exact (each changed in the statement that adds or removes its row).
public struct SocialPost: Sendable, Equatable, Identifiable {
    /// The post's id. Posts are numbered from ``SocialPost/firstID``, so they never share an id
    /// with a `--feed` file's videos (which the server refuses at and above it).
    public var id: Int64
    /// The recording that plays.
    public var recordingID: Int64
    /// The author's user name.
    public var author: String
    /// The description, hashtags and mentions.
    public var text: PostText
    /// Who may see it.
    public var visibility: Visibility
    /// When it was published.
    public var createdAt: Date
    /// Likes, from every user, exact.
    public var likes: Int64
    /// Comments and replies, exact.
    public var comments: Int64
    /// Shares, exact.
    public var shares: Int64
    /// Plays (`watch` events, `POST /events`), exact across servers.
    public var views: Int64
    /// Whether the admin hid it (only its author and the admin still see it).
    public var hidden: Bool
    /// Whether the viewer who asked likes it (false for a viewer who is no user).
    public var liked: Bool
    /// Whether the viewer who asked follows its author.
    public var followed: Bool
    /// What the recording holds, read with the post (no second query for its links).
    public var media: PostMedia

    /// The first post's id: 10¹² + 1, above any id a LIVEr, Pexels or FeedsApp feed holds, and
    /// below 2⁵³ for JavaScript.
    public static let firstID: Int64 = 1_000_000_000_001

    /// Whether `text` (a path's or a feed's id, as written) is in the posts' range: a number
    /// from ``firstID`` on.
    public static func isPostID(_ text: String) -> Bool {
        guard let number = Int64(text), String(number) == text else { return false }
        return number >= firstID
    }

    /// A post.
    public init(id: Int64, recordingID: Int64, author: String, text: PostText, visibility: Visibility, createdAt: Date,
                likes: Int64 = 0, comments: Int64 = 0, shares: Int64 = 0, views: Int64 = 0, hidden: Bool = false, liked: Bool = false,
                followed: Bool = false, media: PostMedia = PostMedia()) {
        self.id = id
        self.recordingID = recordingID
        self.author = author
        self.text = text
        self.visibility = visibility
        self.createdAt = createdAt
        self.likes = likes
        self.comments = comments
        self.shares = shares
        self.views = views
        self.hidden = hidden
        self.liked = liked
        self.followed = followed
        self.media = media
    }
}
