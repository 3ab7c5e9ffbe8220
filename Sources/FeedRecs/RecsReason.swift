/// Why For You picked a video: for an app's "why am I seeing this", and for debugging.
public enum RecsReason: Sendable, Equatable {
    /// Its author is followed.
    case followed
    /// Viewers who watched `video` (one the viewer watched) watched this.
    case similarTo(video: Int64)
    /// It is about a hashtag the viewer watches.
    case topic(String)
    /// Many watch it now.
    case trending
    /// It is new and has few viewers yet: exploration.
    case new
    /// Picked at random among the rest: exploration.
    case explore

    /// Its name in answers: `followed`, `similar_to`, `topic`, `trending`, `new`, `explore`.
    public var name: String {
        switch self {
        case .followed: "followed"
        case .similarTo: "similar_to"
        case .topic: "topic"
        case .trending: "trending"
        case .new: "new"
        case .explore: "explore"
        }
    }

    /// Whether the slot is one of the page's exploration share.
    public var isExploration: Bool { self == .new || self == .explore }
}
