/// One coded frame of a live stream as the publisher sent it: an H.264 access unit or an AAC
/// frame, with the FLV/RTMP timestamps in milliseconds.
public struct LiveSample: Sendable, Equatable {
    /// Which track a sample (or a configuration) belongs to.
    public enum Track: String, Sendable, Equatable, CaseIterable {
        /// H.264 (AVC) video.
        case video
        /// AAC audio.
        case audio
    }

    /// The sample's track.
    public var track: Track
    /// The decode timestamp in milliseconds, as the tag or RTMP message carried it.
    public var decodeTime: Int64
    /// Presentation time minus decode time in milliseconds (FLV's signed 24-bit composition
    /// time); non-zero only for video with B-frames.
    public var compositionOffset: Int32
    /// Whether the frame is a key frame (an IDR picture; every AAC frame is one).
    public var isKeyFrame: Bool
    /// The frame's bytes: AVCC length-prefixed NAL units for video, one raw AAC frame for audio.
    public var payload: [UInt8]

    /// A sample of `track` at `decodeTime` milliseconds.
    public init(track: Track, decodeTime: Int64, compositionOffset: Int32 = 0, isKeyFrame: Bool, payload: [UInt8]) {
        self.track = track
        self.decodeTime = decodeTime
        self.compositionOffset = compositionOffset
        self.isKeyFrame = isKeyFrame
        self.payload = payload
    }
}
