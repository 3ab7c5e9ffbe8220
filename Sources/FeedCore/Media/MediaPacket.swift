/// One compressed frame of a file's video or audio, as its container holds it: what
/// ``MediaPacketReader`` gives and `feed live publish` sends on without decoding.
public struct MediaPacket: Sendable, Equatable {
    /// Video or audio.
    public enum Track: Sendable, Equatable {
        case video, audio
    }

    /// Its track.
    public var track: Track
    /// Whether it is a video key frame (every audio packet is one).
    public var isKey: Bool
    /// Its decoding time, in milliseconds from the file's start (negative for the first frames
    /// of a file with B-frames).
    public var decodeTime: Int64
    /// Its presentation time, in milliseconds like ``decodeTime``.
    public var presentationTime: Int64
    /// How long it lasts in milliseconds, 0 when the container does not say.
    public var duration: Int64
    /// Its bytes: for H.264 from MP4, length-prefixed NAL units (as FLV carries them); for AAC,
    /// one raw frame.
    public var bytes: [UInt8]

    /// A packet of `track`.
    public init(track: Track, isKey: Bool, decodeTime: Int64, presentationTime: Int64, duration: Int64, bytes: [UInt8]) {
        self.track = track
        self.isKey = isKey
        self.decodeTime = decodeTime
        self.presentationTime = presentationTime
        self.duration = duration
        self.bytes = bytes
    }
}
