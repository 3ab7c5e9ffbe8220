/// A mark a user puts on a feed video (by its feed id), kept in the roll's database.
public enum VideoMark: String, Sendable, CaseIterable, Codable {
    /// ♥
    case like
    /// Saved for later.
    case bookmark
}
