/// What the roll needs to know about a video file: read from the file by a ``RecordingProber``.
public struct RecordingMedia: Sendable, Equatable {
    /// Length in seconds.
    public var duration: Double
    /// Display width in pixels (after rotation).
    public var width: Int
    /// Display height in pixels (after rotation).
    public var height: Int
    /// Frames per second (average for variable frame rate).
    public var fps: Double
    /// FFmpeg's short codec name, e.g. `h264`.
    public var videoCodec: String
    /// Whether the file has an audio stream.
    public var hasAudio: Bool

    /// Media facts as a prober read them.
    public init(duration: Double, width: Int, height: Int, fps: Double, videoCodec: String, hasAudio: Bool) {
        self.duration = duration
        self.width = width
        self.height = height
        self.fps = fps
        self.videoCodec = videoCodec
        self.hasAudio = hasAudio
    }
}

/// Reads ``RecordingMedia`` from a file. The roll calls it before it copies anything, so a
/// file it refuses is never added.
public protocol RecordingProber: Sendable {
    /// The facts about the video at `path`.
    /// - Throws: ``RollError/notMedia(path:reason:)`` when it is not a playable video,
    ///   ``RollError/missingFile(path:)`` when it does not exist.
    func probe(path: String) throws(RollError) -> RecordingMedia
}
