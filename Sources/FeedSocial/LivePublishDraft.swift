/// What a live stream created with `"publish": true` becomes when its recording is ready: a
/// post with this description and visibility, by the stream's owner (or `author`, for a stream
/// with none).
public struct LivePublishDraft: Sendable, Equatable {
    /// The post's author when the stream has no owner.
    public var author: String?
    /// The description.
    public var text: PostText
    /// Who sees it.
    public var visibility: Visibility

    /// A draft.
    public init(author: String? = nil, text: PostText, visibility: Visibility = .public) {
        self.author = author
        self.text = text
        self.visibility = visibility
    }
}
