/// A cursor over bytes that never reads past their end: every read checks the bounds and throws
/// ``LivePackagingError/truncated(what:needed:available:)`` naming `what` instead.
struct LiveByteReader {
    /// What the bytes are, for the error (`video tag body`, `avcC record` …).
    let what: String
    private let bytes: ArraySlice<UInt8>
    /// The index of the next byte to read.
    private(set) var position: Int

    /// A reader over `bytes`, from their first index.
    init(_ bytes: ArraySlice<UInt8>, what: String) {
        self.bytes = bytes
        self.what = what
        position = bytes.startIndex
    }

    /// A reader over `bytes`, from the start.
    init(_ bytes: [UInt8], what: String) {
        self.init(bytes[...], what: what)
    }

    /// How many bytes are left.
    var remaining: Int { bytes.endIndex - position }

    /// Throws unless `count` more bytes are there.
    func require(_ count: Int) throws(LivePackagingError) {
        guard count >= 0, count <= remaining else {
            throw .truncated(what: what, needed: position - bytes.startIndex + max(0, count), available: bytes.count)
        }
    }

    /// The next byte.
    mutating func u8() throws(LivePackagingError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes (at most 8) as a big-endian unsigned number.
    mutating func uint(_ count: Int) throws(LivePackagingError) -> UInt64 {
        try require(count)
        var value: UInt64 = 0
        for index in position ..< position + count { value = value << 8 | UInt64(bytes[index]) }
        position += count
        return value
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) throws(LivePackagingError) -> ArraySlice<UInt8> {
        try require(count)
        defer { position += count }
        return bytes[position ..< position + count]
    }

    /// Everything left.
    mutating func rest() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }
}
