/// Who may see a post: everyone, the author's followers, or the author alone. The admin sees
/// every post; ``VisibilityRule`` is the whole rule.
public enum Visibility: String, Sendable, Codable, CaseIterable, Equatable {
    /// Everyone, signed in or not (but a user the author blocked, or who blocked the author).
    case `public`
    /// The author's followers and the author.
    case followers
    /// The author (and the admin) only.
    case `private`
}
