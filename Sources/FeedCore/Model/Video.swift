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
    public var profilePicURL: URL?
    /// Free text; hashtags are derived from it.
    public var description: String
    /// The LIVEr topic ("tasting", "restos" …), nil for other formats.
    public var topic: String?
    /// Live viewer count (FeedsApp: view count).
    public var viewers: Int
    /// Like count (FeedsApp: upvote count).
    public var likes: Int
    /// The playable file (Pexels: hd, then sd, then hls, then the first file).
    public var video: URL?
    /// A still image for the video.
    public var thumbnail: URL?
    /// The hashtags of `description` as written, without `#`: `"#tacos #food"` gives `["tacos", "food"]`.
    public var hashtags: [String]
    /// Length in seconds, fractional, when the format has it.
    public var duration: Double?
    /// Frame width in pixels, when the format has it.
    public var width: Int?
    /// Frame height in pixels, when the format has it.
    public var height: Int?

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
        self.profilePicURL = profilePicURL
        self.description = description
        self.topic = topic
        self.viewers = viewers
        self.likes = likes
        self.video = video
        self.thumbnail = thumbnail
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
