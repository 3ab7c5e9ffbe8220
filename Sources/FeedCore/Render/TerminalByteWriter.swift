/// Writes terminal escape sequences into memory the caller sized for the worst case:
/// no bounds checks, no allocation, decimals from a precomputed table.
struct TerminalByteWriter {
    /// For each byte value: its decimal digit count, then up to three ASCII digits.
    static let byteDigits: [UInt8] = (0..<256).flatMap { (value: Int) -> [UInt8] in
        let text = Array(String(value).utf8)
        return [UInt8(text.count)] + text + Array(repeating: 0, count: 3 - text.count)
    }

    private let base: UnsafeMutablePointer<UInt8>
    private let digits: UnsafePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    /// Writes at `base`; `digits` must point at `byteDigits`' storage for the writer's life.
    init(base: UnsafeMutablePointer<UInt8>, digits: UnsafePointer<UInt8>) {
        self.base = base
        self.digits = digits
    }

    @inline(__always) mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    @inline(__always) mutating func bytes(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// A value 0…255 in decimal, from the table.
    @inline(__always) mutating func decimal(_ value: UInt8) {
        let entry = digits + Int(value) * 4
        let length = Int(entry[0])
        (base + count).update(from: entry + 1, count: length)
        count += length
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
