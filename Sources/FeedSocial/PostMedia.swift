/// A post's recording as a listing needs it: where its file is, what it holds.
public struct PostMedia: Sendable, Equatable {
    /// The recording's file name in the roll.
    public var fileName: String
    /// Its SHA-256 (hex), which names its cached ladder.
    public var sha256: String
    /// Seconds.
    public var duration: Double
    /// Pixels.
    public var width: Int
    /// Pixels.
    public var height: Int

    /// A recording's media.
    public init(fileName: String = "", sha256: String = "", duration: Double = 0, width: Int = 0, height: Int = 0) {
        self.fileName = fileName
        self.sha256 = sha256
        self.duration = duration
        self.width = width
        self.height = height
    }
}
