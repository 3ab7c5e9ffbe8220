extension FragmentedMP4Flattener {
    /// Reads big-endian fields from a box's payload in order; every read is checked against the
    /// box's end and gives nil past it, so a lying count or size cannot read out of bounds.
    struct Fields {
        private let bytes: [UInt8]
        /// The next byte to read.
        private(set) var offset: Int
        /// One past the last byte that may be read.
        let end: Int

        /// Fields of `box`'s payload in `bytes` (offsets in the box are offsets in `bytes`).
        init(_ bytes: [UInt8], _ box: Box) {
            self.bytes = bytes
            offset = Int(box.payload)
            end = Int(box.end)
        }

        /// How many bytes are left.
        var remaining: Int { end - offset }

        mutating func u8() -> UInt8? {
            guard offset < end else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u16() -> UInt16? { number(2).map { UInt16($0) } }

        mutating func u32() -> UInt32? { number(4).map { UInt32($0) } }

        mutating func u64() -> UInt64? { number(8) }

        /// A full box's version and 24-bit flags.
        mutating func versionAndFlags() -> (version: UInt8, flags: UInt32)? {
            guard let word = u32() else { return nil }
            return (UInt8(word >> 24), word & 0xFF_FFFF)
        }

        /// Skips `count` bytes; false when fewer are left.
        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= remaining else { return false }
            offset += count
            return true
        }

        private mutating func number(_ width: Int) -> UInt64? {
            guard width <= remaining else { return nil }
            defer { offset += width }
            return bytes[offset ..< offset + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }
}
