/// Appends ISO base media boxes to a byte buffer, big-endian: a box's size is written once its
/// body is, so callers nest `box` calls the way the boxes nest.
struct CMAFBoxBuilder {
    /// What has been written.
    private(set) var bytes: [UInt8] = []

    /// How many bytes have been written.
    var count: Int { bytes.count }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func u24(_ value: UInt32) {
        for shift in [16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u32(_ value: UInt32) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// `count` zero bytes.
    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }

    /// A four-character code (ASCII).
    mutating func fourCC(_ code: String) { bytes.append(contentsOf: code.utf8.prefix(4)) }

    mutating func append<Bytes: Sequence<UInt8>>(_ more: Bytes) { bytes.append(contentsOf: more) }

    /// Writes a 32-bit big-endian `value` over the bytes at `offset` (a placeholder written before).
    mutating func patch32(_ value: UInt32, at offset: Int) {
        for index in 0 ..< 4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * index)) }
    }

    /// A box of `type` whose body `body` writes.
    mutating func box(_ type: String, _ body: (inout CMAFBoxBuilder) -> Void) {
        let start = bytes.count
        u32(0)
        fourCC(type)
        body(&self)
        patch32(UInt32(bytes.count - start), at: start)
    }

    /// A full box: version and flags, then `body`.
    mutating func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout CMAFBoxBuilder) -> Void) {
        box(type) { builder in
            builder.u8(version)
            builder.u24(flags)
            body(&builder)
        }
    }

    /// An MPEG-4 descriptor (ISO/IEC 14496-1 §7.2.2.1): tag, the body's size in 7-bit groups, body.
    mutating func descriptor(_ tag: UInt8, _ body: (inout CMAFBoxBuilder) -> Void) {
        var inner = CMAFBoxBuilder()
        body(&inner)
        u8(tag)
        var size = inner.count
        var groups: [UInt8] = [UInt8(size & 0x7F)]
        size >>= 7
        while size > 0 {
            groups.insert(UInt8(size & 0x7F) | 0x80, at: 0)
            size >>= 7
        }
        append(groups)
        append(inner.bytes)
    }

    /// The identity transformation matrix of `mvhd` and `tkhd`.
    mutating func unityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { u32(value) }
    }
}
