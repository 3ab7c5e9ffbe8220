/// Where media lives in an object store: `s3://BUCKET/PREFIX`, as `--media` and `FEED_MEDIA`
/// take it. Every key feed writes there starts with the prefix (`PREFIX/`), so one bucket can hold
/// several rolls; the catalog keeps the keys below it, never a full URL.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    /// The bucket.
    public var bucket: String
    /// The prefix without slashes at either end; empty for the bucket's root.
    public var prefix: String

    /// Parses `s3://BUCKET` or `s3://BUCKET/PREFIX` (a trailing `/` is dropped); nil for any
    /// other text, an empty bucket or a bucket name S3 would refuse (3–63 of `a-z 0-9 . -`,
    /// starting and ending with a letter or digit).
    public init?(_ text: String) {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = rest.prefix { $0 != "/" }
        let prefix = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        guard Self.isBucketName(bucket) else { return nil }
        self.bucket = String(bucket)
        self.prefix = prefix
    }

    /// A location from its parts (the prefix's slashes at either end are dropped).
    public init(bucket: String, prefix: String = "") {
        self.bucket = bucket
        self.prefix = prefix.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// Whether `name` is a bucket name S3 takes: 3–63 of `a-z 0-9 . -`, a letter or digit at
    /// each end (names with `_` or capitals, which some stores still keep, are refused here).
    public static func isBucketName<S: StringProtocol>(_ name: S) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func alphanumeric(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        guard alphanumeric(bytes.first!), alphanumeric(bytes.last!) else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// The object key of `name` (a path below the prefix: `recordings/ab12….mp4`).
    public func key(_ name: String) -> String { prefix.isEmpty ? name : "\(prefix)/\(name)" }

    /// The name below the prefix of a key from this location; nil for a key outside it.
    public func name(ofKey key: String) -> String? {
        if prefix.isEmpty { return key }
        guard key.hasPrefix(prefix + "/") else { return nil }
        return String(key.dropFirst(prefix.count + 1))
    }

    public var description: String { prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)" }
}
