/// Where a page of recordings ends: the last row's `created_at` and `id`, the listing's order.
///
/// Its text form (``description``) is opaque to clients (`next_cursor` over HTTP); it
/// round-trips exactly, so no row is repeated or skipped at a page boundary.
public struct RecordingCursor: Sendable, Hashable, LosslessStringConvertible {
    /// `created_at` of the last row shown, seconds since 1970.
    public var createdAt: Double
    /// `id` of the last row shown.
    public var id: Int64

    /// The cursor after `recording`.
    public init(after recording: Recording) {
        createdAt = recording.createdAt.timeIntervalSince1970
        id = recording.id
    }

    /// A cursor from its parts.
    public init(createdAt: Double, id: Int64) {
        self.createdAt = createdAt
        self.id = id
    }

    /// Parses the text form; nil for anything else.
    public init?(_ description: String) {
        let parts = description.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, let bits = UInt64(parts[0], radix: 16),
              let id = Int64(parts[1]), id > 0, String(id) == parts[1] else { return nil }
        let createdAt = Double(bitPattern: bits)
        guard createdAt.isFinite else { return nil }
        self.init(createdAt: createdAt, id: id)
    }

    /// `<created_at's 64 bits in hex>-<id>`, e.g. `41d9cc1a1b2c3d4e-42`.
    public var description: String {
        let hex = String(createdAt.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-" + String(id)
    }
}
