import FeedCore
/// What `PATCH /users/me` changes; nil leaves a field as it is.
public struct ProfileEdit: Sendable, Equatable {
    /// The name shown: 1 to ``maximumDisplayName`` characters, one line.
    public var displayName: String?
    /// The bio: at most ``maximumBio`` characters, line breaks allowed.
    public var bio: String?
    /// The avatar: `.some(nil)` takes it away, `.some(id)` sets the poster of one of the user's
    /// own recordings.
    public var avatarRecording: Int64??

    /// The longest display name.
    public static let maximumDisplayName = 64
    /// The longest bio.
    public static let maximumBio = 300

    /// An edit.
    public init(displayName: String? = nil, bio: String? = nil, avatarRecording: Int64?? = nil) {
        self.displayName = displayName
        self.bio = bio
        self.avatarRecording = avatarRecording
    }

    /// Refuses a display name or bio that is too long, empty where it must not be, or holds
    /// control characters.
    public func validate() throws(SocialError) {
        if let displayName {
            if Comment.isBlank(displayName) { throw SocialError.invalidField("display_name", "must not be empty") }
            if displayName.count > Self.maximumDisplayName {
                throw SocialError.invalidField("display_name", "is \(displayName.count) characters; at most \(Self.maximumDisplayName)")
            }
            if displayName.unicodeScalars.contains(where: PostText.isControl) {
                throw SocialError.invalidField("display_name", "must be one line without control characters")
            }
        }
        if let bio {
            if bio.count > Self.maximumBio { throw SocialError.invalidField("bio", "is \(bio.count) characters; at most \(Self.maximumBio)") }
            if bio.unicodeScalars.contains(where: { $0 != "\n" && PostText.isControl($0) }) {
                throw SocialError.invalidField("bio", "holds a control character; only line breaks are allowed")
            }
        }
    }
}
