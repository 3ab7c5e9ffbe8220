/// Video codecs `VideoWriter` can encode.
public enum VideoCodec: String, Sendable, Codable, CaseIterable {
    /// H.264 with libx264.
    case h264
    /// HEVC with libx265, tagged hvc1.
    case hevc
}

/// The audio track a `VideoWriter` encodes (AAC).
public struct AudioFormat: Sendable, Equatable, Codable {
    /// Samples per second; AAC accepts 8000–96000 (44100 and 48000 are usual).
    public var sampleRate: Int
    /// 1 or 2.
    public var channels: Int
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}
