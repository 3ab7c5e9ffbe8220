/// What publishing a recording asks for; ``SocialStore/publish(_:)`` makes it a post.
public struct PostDraft: Sendable, Equatable {
    /// The recording to publish.
    public var recordingID: Int64
    /// Who publishes: the recording's owner, or the admin (then the post is the owner's).
    public var viewer: Viewer
    /// The author when the recording has no owner (the server's own, or the CLI's): required
    /// then, and ignored otherwise.
    public var author: String?
    /// The description.
    public var text: PostText
    /// Who may see it.
    public var visibility: Visibility

    /// A draft.
    public init(recordingID: Int64, viewer: Viewer, author: String? = nil, text: PostText, visibility: Visibility = .public) {
        self.recordingID = recordingID
        self.viewer = viewer
        self.author = author
        self.text = text
        self.visibility = visibility
    }
}
