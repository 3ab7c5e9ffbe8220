import Foundation

/// The demo feed compiled into the binary, so `feed list` works anywhere with no arguments.
public enum DemoFeed {
    /// Bytes of `Fixtures/videos.json`, exactly as published.
    public static var videosJSON: [UInt8] { PackageResources.videos_json }
    /// Bytes of `Fixtures/comments.json`, exactly as published.
    public static var commentsJSON: [UInt8] { PackageResources.comments_json }
}
