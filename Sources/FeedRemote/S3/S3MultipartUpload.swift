import Foundation

/// A multipart upload the store holds open: begun, not yet completed or aborted.
public struct S3MultipartUpload: Sendable, Equatable {
    /// The key it will complete at.
    public var key: String
    /// The store's id for it.
    public var uploadID: String
    /// When it began.
    public var initiated: Date?

    /// An upload as listed.
    public init(key: String, uploadID: String, initiated: Date?) {
        self.key = key
        self.uploadID = uploadID
        self.initiated = initiated
    }

    /// One part of it: its number (1…10,000), entity tag and size; listed, also when it came.
    /// Two parts are equal when their number, tag and size are (when they came is not compared).
    public struct Part: Sendable, Equatable {
        /// 1…10,000, in the order the parts join.
        public var number: Int
        /// The entity tag the store gave it, quotes removed; the completion names each part by it.
        public var etag: String
        /// Its size in bytes.
        public var size: Int64
        /// When the store received it (as listed; nil for a part just uploaded).
        public var modified: Date?

        /// A part as listed or as uploaded.
        public init(number: Int, etag: String, size: Int64, modified: Date? = nil) {
            self.number = number
            self.etag = etag
            self.size = size
            self.modified = modified
        }

        public static func == (a: Part, b: Part) -> Bool { a.number == b.number && a.etag == b.etag && a.size == b.size }
    }
}
