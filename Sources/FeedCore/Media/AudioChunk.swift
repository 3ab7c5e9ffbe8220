/// Decoded audio: interleaved float samples in [-1, 1] and the time of the first one.
public struct AudioChunk: Sendable, Equatable {
    /// `frames * channels` values, channel samples interleaved.
    public var samples: [Float]
    public var channels: Int
    public var sampleRate: Int
    /// Seconds from the start of the file.
    public var time: Double
    /// Samples per channel.
    public var frames: Int { samples.count / max(channels, 1) }
}
