import Foundation

/// Whether a ``Media`` item is a still image or a video.
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    /// A still image.
    case image
    /// A video clip.
    case video
}

/// One image or video of a FeedsApp ``Post``.
public struct Media: Sendable, Equatable, Codable {
    /// Playback details of a media item.
    public struct Metadata: Sendable, Equatable, Codable {
        /// Length in seconds, fractional (0 for images).
        public var duration: Double
        /// Whether players should loop it.
        public var isLooping: Bool
        /// Whether it has an audio track.
        public var hasSound: Bool

        /// Creates metadata.
        public init(duration: Double = 0, isLooping: Bool = false, hasSound: Bool = false) {
            self.duration = duration
            self.isLooping = isLooping
            self.hasSound = hasSound
        }

        /// The FeedsApp JSON field names.
        enum CodingKeys: String, CodingKey {
            case duration, isLooping = "is_looping", hasSound = "has_sound"
        }
    }

    /// The media id.
    public var id: FeedID
    /// Image or video.
    public var type: MediaKind
    /// E.g. `video/mp4`; `""` when absent.
    public var mimeType: String
    /// Where the file is, as the feed names it: a URL or a file path, as written.
    public var reference: MediaReference?
    /// ``reference`` when it is a URL; nil when it is a file path.
    public var url: URL? {
        get { reference?.url }
        set { reference = newValue.map(MediaReference.init(url:)) }
    }
    /// Width in pixels (0 when unknown).
    public var width: Int
    /// Height in pixels (0 when unknown).
    public var height: Int
    /// File size in bytes (0 when unknown).
    public var size: Int
    /// Duration, looping, sound.
    public var metadata: Metadata

    /// Creates a media item.
    public init(
        id: FeedID, type: MediaKind, mimeType: String = "", url: URL? = nil,
        width: Int = 0, height: Int = 0, size: Int = 0, metadata: Metadata = Metadata()
    ) {
        self.id = id
        self.type = type
        self.mimeType = mimeType
        self.reference = url.map(MediaReference.init(url:))
        self.width = width
        self.height = height
        self.size = size
        self.metadata = metadata
    }

    /// The FeedsApp JSON field names.
    enum CodingKeys: String, CodingKey {
        case id, type, mimeType = "mime_type", reference = "url", width, height, size, metadata
    }
}
