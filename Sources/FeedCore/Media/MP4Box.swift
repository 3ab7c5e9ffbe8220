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

    /// What lies where a box should start.
    enum Header: Sendable, Equatable {
        /// A whole box.
        case box(MP4Box)
        /// Nothing: the offset is the container's end.
        case end
        /// A box cut off, or lying about its size; the reason, for errors.
        case broken(String)
    }

    /// Reads the box header at `offset` of a container that ends at `limit` (a buffer, or a file
    /// read piecewise), from `header`: the up to 16 bytes there. Never trusts a size: one smaller
    /// than its header, or one running past `limit`, is broken; size 0 runs to `limit`; size 1
    /// takes the 64-bit size after the type. The one reading of a box header, for every walk.
    static func header(_ header: ArraySlice<UInt8>, at offset: Int, limit: Int) -> Header {
        let left = limit - offset
        guard left > 0 else { return .end }
        guard left >= 8, header.count >= 8 else { return .broken("a box header at byte \(offset) is cut off") }
        let base = header.startIndex
        var size = Int(header[base ..< base + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let type = String(decoding: header[base + 4 ..< base + 8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") },
                          as: UTF8.self)
        var headerSize = 8
        if size == 1 {
            guard left >= 16, header.count >= 16 else { return .broken("the 64-bit size of '\(type)' at byte \(offset) is cut off") }
            let large = header[base + 8 ..< base + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large <= UInt64(Int.max) else { return .broken("'\(type)' at byte \(offset) has size \(large)") }
            size = Int(large)
            headerSize = 16
        } else if size == 0 {
            size = left
        }
        guard size >= headerSize else {
            return .broken("'\(type)' at byte \(offset) has size \(size), smaller than its \(headerSize)-byte header")
        }
        guard size <= left else { return .broken("'\(type)' at byte \(offset) has size \(size) but only \(left) bytes are left") }
        return .box(MP4Box(type: type, start: offset, payload: offset + headerSize, end: offset + size))
    }

    /// The boxes directly inside `bytes[range]`, in order, and why the walk stopped before the
    /// end (a box cut off or lying about its size), when it did.
    static func walk(_ bytes: [UInt8], in range: Range<Int>) -> (boxes: [MP4Box], broken: String?) {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        while true {
            switch header(bytes[offset ..< min(offset + 16, range.upperBound)], at: offset, limit: range.upperBound) {
            case .end: return (boxes, nil)
            case .broken(let reason): return (boxes, reason)
            case .box(let box):
                boxes.append(box)
                offset = box.end
            }
        }
    }

    /// The boxes directly inside `bytes[range]`, in order; stops at the first box that does not
    /// fit (a truncated or hostile file) with what came before it.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MP4Box] {
        walk(bytes, in: range).boxes
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
