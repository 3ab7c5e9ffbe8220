import Foundation

/// A user as others see them, with the counts the catalog keeps exact.
public struct Profile: Sendable, Equatable {
    /// The user name (a JWT's `sub`).
    public var name: String
    /// The name shown; the user name until they set one.
    public var displayName: String
    /// A few words of their own ("" until set).
    public var bio: String
    /// The recording whose poster is their avatar, if they chose one.
    public var avatarRecording: Int64?
    /// How many users follow them.
    public var followers: Int64
    /// How many users they follow.
    public var following: Int64
    /// How many posts they have published (hidden and private ones included).
    public var videos: Int64
    /// How many likes their posts have received.
    public var likes: Int64
    /// When they first wrote.
    public var createdAt: Date
    /// Whether the viewer who asked follows them.
    public var followed: Bool
    /// Whether the viewer who asked blocked them.
    public var blocked: Bool

    /// A profile.
    public init(name: String, displayName: String, bio: String = "", avatarRecording: Int64? = nil, followers: Int64 = 0,
                following: Int64 = 0, videos: Int64 = 0, likes: Int64 = 0, createdAt: Date, followed: Bool = false, blocked: Bool = false) {
        self.name = name
        self.displayName = displayName
        self.bio = bio
        self.avatarRecording = avatarRecording
        self.followers = followers
        self.following = following
        self.videos = videos
        self.likes = likes
        self.createdAt = createdAt
        self.followed = followed
        self.blocked = blocked
    }
}
