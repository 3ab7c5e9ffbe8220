/// How far a stack has come, reported to the caller's callback about four times a second.
public struct StackProgress: Sendable, Equatable {
    /// Output frames written.
    public var frames: Int
    /// Output frames expected (from the inputs' durations; an estimate).
    public var expectedFrames: Int
    /// Seconds since the stack started.
    public var elapsed: Double

    /// 0…1.
    public var fraction: Double { expectedFrames > 0 ? min(1, Double(frames) / Double(expectedFrames)) : 0 }
    /// Frames written per second of wall time.
    public var fps: Double { elapsed > 0 ? Double(frames) / elapsed : 0 }
    /// Seconds left at the current speed, nil until it can be estimated.
    public var eta: Double? { fps > 0 && expectedFrames >= frames ? Double(expectedFrames - frames) / fps : nil }
}

/// What `Stacker.run` produced (`feed stack --json` prints it).
public struct StackResult: Sendable, Equatable, Codable {
    public var output: String
    public var width: Int
    public var height: Int
    public var fps: Double
    public var frames: Int
    /// Seconds of video.
    public var duration: Double
    /// Size of the output file.
    public var bytes: Int64
    /// Wall-clock seconds the stack took.
    public var seconds: Double
    /// "back", "front" or nil: whose audio the output carries.
    public var audio: String?
    /// Seconds the front started after the back: the offset asked for, or the one ``AudioSync`` found.
    public var offset: Double
    /// ``AudioSync``'s confidence in `offset` when it found it, else nil.
    public var syncConfidence: Double?
}
