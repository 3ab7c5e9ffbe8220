import Foundation

/// A comment posted to a live stream while it plays, kept in the catalog so every server sharing
/// it shows the same chat, and carrying the stream's time so an app shows it in step with the
/// picture.
public struct LiveComment: Sendable, Equatable {
    /// 1, 2, … across every stream, in posting order (0 before the catalog gave one).
    public var id: Int64
    /// The live stream it was posted to.
    public var streamID: Int64
    public var username: String
    public var text: String
    public var createdAt: Date
    /// The stream's `EXT-X-PROGRAM-DATE-TIME` at its live edge when the comment came (nil when
    /// the stream was not playing on the server that took it).
    public var streamTime: Date?
    /// The user who posted it (nil: the admin or an open server).
    public var owner: String?

    /// A comment to post (its id comes from the catalog).
    public init(id: Int64 = 0, streamID: Int64, username: String, text: String, createdAt: Date, streamTime: Date? = nil, owner: String? = nil) {
        self.id = id
        self.streamID = streamID
        self.username = username
        self.text = text
        self.createdAt = createdAt
        self.streamTime = streamTime
        self.owner = owner
    }
}
