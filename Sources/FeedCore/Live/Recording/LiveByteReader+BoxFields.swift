/// Box fields as the flattener reads them: the packager's bounds-checked cursor over a box's
/// payload, whose reads past the box's end give nil here, so a lying count or size cannot read
/// out of bounds.
extension LiveByteReader {
    /// The payload of `box` in `bytes` (offsets in the box are offsets in `bytes`).
    init(_ bytes: [UInt8], _ box: MP4Box) {
        self.init(bytes[box.body], what: box.type)
    }

    mutating func u16() -> UInt16? { (try? uint(2)).map { UInt16($0) } }

    mutating func u32() -> UInt32? { (try? uint(4)).map { UInt32($0) } }

    mutating func u64() -> UInt64? { try? uint(8) }

    /// A full box's version and 24-bit flags.
    mutating func versionAndFlags() -> (version: UInt8, flags: UInt32)? {
        guard let word = u32() else { return nil }
        return (UInt8(word >> 24), word & 0xFF_FFFF)
    }

    /// Skips `count` bytes; false when fewer are left.
    mutating func skip(_ count: Int) -> Bool {
        (try? bytes(count)) != nil
    }
}
