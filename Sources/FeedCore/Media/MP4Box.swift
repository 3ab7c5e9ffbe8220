/// One ISO base media box header inside a byte buffer: its four-letter type and where its
/// payload lies. The reader never trusts a length: a box that claims to run past its parent
/// ends the walk.
struct MP4Box: Sendable, Equatable {
    /// The four-letter type, `moov`, `trak`, `stco` …
    let type: String
    /// Where the box starts in the buffer.
    let start: Int
    /// Where its payload starts (after the 8- or 16-byte header).
    let payload: Int
    /// One past its last byte.
    let end: Int

    /// The boxes directly inside `bytes[range]`, in order; stops at the first box that does not
    /// fit (a truncated or hostile file) with what came before it.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var length = Int(bytes.uint32(at: offset))
            var header = 8
            if length == 1 {
                guard offset + 16 <= range.upperBound, bytes.uint64(at: offset + 8) <= UInt64(Int.max) else { break }
                length = Int(bytes.uint64(at: offset + 8))
                header = 16
            } else if length == 0 {
                length = range.upperBound - offset
            }
            guard length >= header, length <= range.upperBound - offset else { break }
            let type = String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)
            boxes.append(MP4Box(type: type, start: offset, payload: offset + header, end: offset + length))
            offset += length
        }
        return boxes
    }

    /// The first box of `type` directly inside `bytes[range]`.
    static func child(_ type: String, of bytes: [UInt8], in range: Range<Int>) -> MP4Box? {
        children(of: bytes, in: range).first { $0.type == type }
    }

    /// The first box reached by following `path` (`["mdia", "minf", "stbl"]`) from `range`.
    static func find(_ path: [String], in bytes: [UInt8], range: Range<Int>) -> MP4Box? {
        var range = range
        var found: MP4Box?
        for type in path {
            guard let box = child(type, of: bytes, in: range) else { return nil }
            found = box
            range = box.payload ..< box.end
        }
        return found
    }

    /// The payload as a range.
    var body: Range<Int> { payload ..< end }
}

extension Array where Element == UInt8 {
    /// The big-endian 32-bit number at `offset` (the caller checked the bounds).
    func uint32(at offset: Int) -> UInt32 {
        self[offset ..< offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// The big-endian 64-bit number at `offset`.
    func uint64(at offset: Int) -> UInt64 {
        self[offset ..< offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Writes `value` big-endian at `offset`.
    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        for index in 0 ..< 4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    /// Writes `value` big-endian at `offset`.
    mutating func setUInt64(_ value: UInt64, at offset: Int) {
        for index in 0 ..< 8 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
    }
}
