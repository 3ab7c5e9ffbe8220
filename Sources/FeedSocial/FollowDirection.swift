/// Which side of a user's follows a listing wants.
public enum FollowDirection: String, Sendable, Equatable {
    /// The users who follow them.
    case followers
    /// The users they follow.
    case following
}
