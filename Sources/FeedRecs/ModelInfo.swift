import Foundation

/// One trained model as the catalog lists it: its version (numbered by the catalog, so every
/// server sharing it serves the same), when it was trained and from what.
public struct ModelInfo: Sendable, Equatable {
    /// The version, from 1.
    public var version: Int64
    /// When training ended, in seconds since 1970.
    public var trainedAt: Double
    /// Events it learned from.
    public var events: Int
    /// Viewers (users and devices) it learned from.
    public var viewers: Int
    /// Videos it knows.
    public var videos: Int
    /// Seconds training took.
    public var seconds: Double
    /// The model's size in bytes.
    public var bytes: Int

    /// A model's row.
    public init(version: Int64, trainedAt: Double, events: Int, viewers: Int, videos: Int, seconds: Double, bytes: Int) {
        self.version = version
        self.trainedAt = trainedAt
        self.events = events
        self.viewers = viewers
        self.videos = videos
        self.seconds = seconds
        self.bytes = bytes
    }
}
