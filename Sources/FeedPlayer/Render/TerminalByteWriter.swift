import FeedCore
/// Writes terminal escape sequences into memory the caller sized for the worst case:
/// no bounds checks, no allocation, decimals from a precomputed table.
struct TerminalByteWriter {
    /// For each byte value, its ASCII decimal digits in the low bytes (first digit lowest)
    /// and the digit count in the high byte: one 4-byte store writes any of them.
    static let byteDigits: [UInt32] = (0..<256).map { (value: Int) -> UInt32 in
        let text = Array(String(value).utf8)
        var packed = UInt32(text.count) << 24
        for (index, digit) in text.enumerated() { packed |= UInt32(digit) << (8 * index) }
        return packed
    }

    /// Bytes a writer may touch past what it reports written (decimals are stored 4 at a
    /// time); callers leave this much slack after their worst case.
    static let slack = 4

    private let base: UnsafeMutablePointer<UInt8>
    private let digits: UnsafePointer<UInt32>
    /// Bytes written so far.
    private(set) var count = 0

    /// Writes at `base`; `digits` must point at `byteDigits`' storage for the writer's life.
    init(base: UnsafeMutablePointer<UInt8>, digits: UnsafePointer<UInt32>) {
        self.base = base
        self.digits = digits
    }

    @inline(__always) mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    @inline(__always) mutating func bytes(_ text: StaticString) {
        // Escape sequences are a few bytes: a loop beats a call to memmove.
        let source = text.utf8Start
        for index in 0..<text.utf8CodeUnitCount { base[count + index] = source[index] }
        count += text.utf8CodeUnitCount
    }

    /// A value 0…255 in decimal, from the table.
    @inline(__always) mutating func decimal(_ value: UInt8) {
        let packed = digits[Int(value)]
        UnsafeMutableRawPointer(base + count).storeBytes(of: packed.littleEndian, as: UInt32.self)
        count += Int(packed >> 24)
    }

    /// A non-negative integer in decimal (cursor rows and columns).
    @inline(__always) mutating func decimal(_ value: Int) {
        if value < 256 { return decimal(UInt8(value)) }
        var reversed = value
        var length = 0
        repeat { length += 1; reversed /= 10 } while reversed > 0
        var rest = value
        for offset in stride(from: length - 1, through: 0, by: -1) {
            base[count + offset] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
        }
        count += length
    }
}
