import Foundation

/// One playable item of any feed format; FeedsApp posts and Pexels videos map to one `Video` each.
public struct Video: Sendable, Equatable, Codable {
    /// The video's id (LIVEr/Pexels number, FeedsApp post id).
    public var id: FeedID
    /// The id of the user who posted it, when the format has one.
    public var userID: FeedID?
    /// The poster's name; `""` when the format has none.
    public var username: String
    /// The poster's avatar.
    public var profilePicURL: URL? {
        get { Self.url(profilePicURLText) }
        set { profilePicURLText = newValue?.absoluteString }
    }
    /// Free text; hashtags are derived from it.
    public var description: String
    /// The LIVEr topic ("tasting", "restos" …), nil for other formats.
    public var topic: String?
    /// Live viewer count (FeedsApp: view count).
    public var viewers: Int
    /// Like count (FeedsApp: upvote count).
    public var likes: Int
    /// The playable file as the feed names it: a URL or a file path, as written (Pexels: hd,
    /// then sd, then hls, then the first file). Resolve it with ``Feed/location(of:)``.
    public var videoReference: MediaReference?
    /// A still image for the video, as the feed names it.
    public var thumbnailReference: MediaReference?
    /// ``videoReference`` when it is a URL; nil when it is a file path. Setting it stores the
    /// URL's absolute string.
    public var video: URL? {
        get { videoReference?.url }
        set { videoReference = newValue.map(MediaReference.init(url:)) }
    }
    /// ``thumbnailReference`` when it is a URL; nil when it is a file path.
    public var thumbnail: URL? {
        get { thumbnailReference?.url }
        set { thumbnailReference = newValue.map(MediaReference.init(url:)) }
    }
    /// The hashtags of `description` as written, without `#`: `"#tacos #food"` gives `["tacos", "food"]`.
    public var hashtags: [String]
    /// Length in seconds, fractional, when the format has it.
    public var duration: Double?
    /// Frame width in pixels, when the format has it.
    public var width: Int?
    /// Frame height in pixels, when the format has it.
    public var height: Int?

    // URLs and media references are kept as their text and made into `URL`s when asked for: a
    // Foundation URL costs ~440 bytes on Linux against ~70 for its text, which is most of the
    // memory of a 100,000-video feed. `JSONOutput` writes the text directly.
    /// ``profilePicURL``'s absolute string.
    private(set) var profilePicURLText: String?
    /// ``videoReference``'s text, as written.
    var videoText: String? { videoReference?.text }
    /// ``thumbnailReference``'s text, as written.
    var thumbnailText: String? { thumbnailReference?.text }

    /// Creates a video; `hashtags` defaults to the ones found in `description`.
    public init(
        id: FeedID, userID: FeedID? = nil, username: String, profilePicURL: URL? = nil,
        description: String = "", topic: String? = nil, viewers: Int = 0, likes: Int = 0,
        video: URL? = nil, thumbnail: URL? = nil, hashtags: [String]? = nil,
        duration: Double? = nil, width: Int? = nil, height: Int? = nil
    ) {
        self.id = id
        self.userID = userID
        self.username = username
        self.profilePicURLText = profilePicURL?.absoluteString
        self.description = description
        self.topic = topic
        self.viewers = viewers
        self.likes = likes
        self.videoReference = video.map(MediaReference.init(url:))
        self.thumbnailReference = thumbnail.map(MediaReference.init(url:))
        self.hashtags = hashtags ?? Video.hashtags(in: description)
        self.duration = duration
        self.width = width
        self.height = height
    }

    /// The house JSON field names (the same ones ``JSONOutput`` writes).
    enum CodingKeys: String, CodingKey {
        case id, userID = "user_id", username, profilePicURL = "profile_pic_url", description, topic
        case viewers, likes, video, thumbnail, hashtags, duration, width, height
    }

    /// Decodes the house JSON fields; `profile_pic_url` is checked as a `URL`, `video` and
    /// `thumbnail` are media references (a URL or a file path, kept as written).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(FeedID.self, forKey: .id),
            userID: try container.decodeIfPresent(FeedID.self, forKey: .userID),
            username: try container.decode(String.self, forKey: .username),
            profilePicURL: try container.decodeIfPresent(URL.self, forKey: .profilePicURL),
            description: try container.decode(String.self, forKey: .description),
            topic: try container.decodeIfPresent(String.self, forKey: .topic),
            viewers: try container.decode(Int.self, forKey: .viewers),
            likes: try container.decode(Int.self, forKey: .likes),
            hashtags: try container.decode([String].self, forKey: .hashtags),
            duration: try container.decodeIfPresent(Double.self, forKey: .duration),
            width: try container.decodeIfPresent(Int.self, forKey: .width),
            height: try container.decodeIfPresent(Int.self, forKey: .height))
        videoReference = try container.decodeIfPresent(MediaReference.self, forKey: .video)
        thumbnailReference = try container.decodeIfPresent(MediaReference.self, forKey: .thumbnail)
    }

    /// Encodes the house JSON fields; URLs as their absolute strings, media references as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encode(username, forKey: .username)
        try container.encodeIfPresent(profilePicURL, forKey: .profilePicURL)
        try container.encode(description, forKey: .description)
        try container.encodeIfPresent(topic, forKey: .topic)
        try container.encode(viewers, forKey: .viewers)
        try container.encode(likes, forKey: .likes)
        try container.encodeIfPresent(videoReference, forKey: .video)
        try container.encodeIfPresent(thumbnailReference, forKey: .thumbnail)
        try container.encode(hashtags, forKey: .hashtags)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
    }

    private static func url(_ text: String?) -> URL? {
        text.flatMap { URL(string: $0) }
    }

    /// The hashtags in `text` in order of appearance, as written, without `#`. A tag is `#`
    /// followed by letters, digits or `_` (any non-ASCII character counts as a letter).
    public static func hashtags(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var tags: [String] = []
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "#") else { index += 1; continue }
                var end = index + 1
                while end < bytes.count, isTagByte(bytes[end]) { end += 1 }
                if end > index + 1 {
                    tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self))
                }
                index = end
            }
            return tags
        }
    }

    private static func isTagByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...: true
        default: false
        }
    }
}
