/// Reads the bits of an H.264 RBSP (a NAL unit's payload with its emulation prevention bytes
/// removed): fixed-width fields and Exp-Golomb codes, most significant bit first. Reading past
/// the end, or an Exp-Golomb code longer than 32 bits, throws ``LivePackagingError/badSPS(reason:)``
/// naming the field.
struct RBSPBitReader {
    private let bytes: [UInt8]
    private var bit = 0

    /// A reader over `bytes`, already unescaped.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// `nal` (the bytes after the NAL header) with every `00 00 03` turned back into `00 00`.
    static func unescape<Bytes: Collection<UInt8>>(_ nal: Bytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// The next `count` bits (at most 32) as a number; `field` names it in the error.
    mutating func bits(_ count: Int, _ field: String) throws(LivePackagingError) -> UInt32 {
        guard bit + count <= bytes.count * 8 else { throw .badSPS(reason: "\(field) runs past the end") }
        var value: UInt32 = 0
        for _ in 0 ..< count {
            let byte = bytes[bit >> 3]
            value = value << 1 | UInt32(byte >> (7 - UInt8(bit & 7)) & 1)
            bit += 1
        }
        return value
    }

    /// The next bit as a flag.
    mutating func flag(_ field: String) throws(LivePackagingError) -> Bool {
        try bits(1, field) == 1
    }

    /// An unsigned Exp-Golomb code, ue(v).
    mutating func ue(_ field: String) throws(LivePackagingError) -> UInt32 {
        var zeros = 0
        while try bits(1, field) == 0 {
            zeros += 1
            guard zeros < 32 else { throw .badSPS(reason: "\(field) is not a valid Exp-Golomb code") }
        }
        if zeros == 0 { return 0 }
        let suffix = try bits(zeros, field)
        // 2^zeros - 1 + suffix fits in UInt32 for zeros <= 31, except the one value that overflows.
        let (sum, overflow) = (UInt32(1) << zeros - 1).addingReportingOverflow(suffix)
        guard !overflow else { throw .badSPS(reason: "\(field) is out of range") }
        return sum
    }

    /// A signed Exp-Golomb code, se(v).
    mutating func se(_ field: String) throws(LivePackagingError) -> Int64 {
        let code = Int64(try ue(field))
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}
