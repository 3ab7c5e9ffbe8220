import Foundation

/// An object as a listing or a `HEAD` describes it.
public struct S3Object: Sendable, Equatable {
    /// The key.
    public var key: String
    /// Its size in bytes.
    public var size: Int64
    /// The store's entity tag, quotes removed (an MD5 for a plain upload, `…-N` for a multipart one).
    public var etag: String
    /// When it was last written, to the second.
    public var lastModified: Date?
    /// Its `x-amz-meta-` metadata, names without the prefix (a `HEAD` gives it, a listing not).
    public var metadata: [String: String]

    /// An object as described.
    public init(key: String, size: Int64, etag: String, lastModified: Date?, metadata: [String: String] = [:]) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.metadata = metadata
    }
}
