/// The feed file formats ``FeedLoader`` reads; the raw value is the `--format` spelling.
public enum FeedFormat: String, CaseIterable, Sendable {
    /// `{"videos": [...]}`, LIVEr / LiveStreamAssignment.
    case liver
    /// `{"comments": [...]}`, LIVEr comments.
    case liverComments = "liver-comments"
    /// `[ {post}, ... ]`, FeedsApp albums (Imgur-style posts with media).
    case feedsApp = "feedsapp"
    /// `{"page": .., "videos": [...]}`, a Pexels `/videos/search` response.
    case pexels
}
