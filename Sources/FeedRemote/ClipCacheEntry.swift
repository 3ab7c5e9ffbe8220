import Foundation

/// One clip in the cache, as `feed cache` lists it.
public struct ClipCacheEntry: Sendable, Equatable {
    /// The clip's URL.
    public var url: String
    /// Bytes on disk (for a partial download, what has arrived so far).
    public var bytes: Int64
    /// When it was last played (or downloaded).
    public var lastUsed: Date
    /// False for a download that stopped before the end: the next play resumes it.
    public var complete: Bool
}
