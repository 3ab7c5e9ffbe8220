/// The request of an `hls` or `thumb` job: `{"recording": ID}`, with `"at": SECONDS` for a
/// poster frame (default 10 % into the recording).
public struct RecordingJobRequest: Sendable, Equatable, Codable {
    /// The recording to package or draw.
    public var recording: Int64
    /// Seconds into the recording of the poster frame (thumb only).
    public var at: Double?

    /// A request for recording `recording`.
    public init(recording: Int64, at: Double? = nil) {
        self.recording = recording
        self.at = at
    }
}
