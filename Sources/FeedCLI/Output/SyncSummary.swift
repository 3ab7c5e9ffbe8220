import Foundation

/// What `feed sync --json` prints: `{"confidence":14.2,"offset":0.412,"searched":[-10,10]}`,
/// offset null when the match was refused.
struct SyncSummary: Encodable {
    var offset: Double?
    var confidence: Double
    /// Encoded as `[min, max]` (ClosedRange's own Codable form).
    var searched: ClosedRange<Double>

    private enum Key: String, CodingKey { case offset, confidence, searched }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(offset, forKey: .offset)            // null, not missing, when refused
        try c.encode(confidence, forKey: .confidence)
        try c.encode(searched, forKey: .searched)
    }

    /// The JSON object on one line, keys sorted, newline-terminated.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// An offset as printed: up to 5 decimals (10 µs), e.g. "0.412", "-3.27556".
    static func seconds(_ value: Double) -> String { trimmed(value, decimals: 5) }

    /// A confidence as printed: 2 decimals at most, e.g. "14.2".
    static func confidence(_ value: Double) -> String { trimmed(value, decimals: 2) }

    private static func trimmed(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", value)
        while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
