import Foundation

/// One saved recording: a row of the roll's catalog and a file in `recordings/`. A plain value:
/// each ``RecordingCatalog`` decides how it is stored.
///
/// ``RecordingJSON`` writes it with the same snake_case names as the table's columns. The
/// ``media`` facts are stored and written flat, as columns and top-level fields beside the others.
public struct Recording: Sendable, Equatable {
    /// Stable id; never reused after a removal.
    public var id: Int64
    /// The stored file's name inside `recordings/`.
    public var fileName: String
    /// The path the file was added from.
    public var originalPath: String
    /// When it entered the roll.
    public var createdAt: Date
    /// What the prober read from the file: length, display size, frame rate, codec, sound.
    public var media: RecordingMedia
    /// Size of the stored file in bytes.
    public var bytes: Int64
    /// SHA-256 of the stored file, lowercase hex.
    public var sha256: String
    /// For stacked recordings: the source files (front, back).
    public var sources: [String]?
    /// For stacked recordings: the stack options used, as a JSON object text.
    public var stackOptions: String?
    /// An optional title.
    public var title: String?
    /// The user it belongs to (`feed serve`'s JWT `sub`); nil for the server's own: rows the CLI
    /// adds, and those from before there were users. Only an admin sees those.
    public var owner: String?

    /// A recording with every field given; `id` 0 until inserted.
    public init(id: Int64 = 0, fileName: String, originalPath: String, createdAt: Date, media: RecordingMedia,
                bytes: Int64, sha256: String, sources: [String]? = nil, stackOptions: String? = nil, title: String? = nil,
                owner: String? = nil) {
        self.id = id
        self.fileName = fileName
        self.originalPath = originalPath
        self.createdAt = createdAt
        self.media = media
        self.bytes = bytes
        self.sha256 = sha256
        self.sources = sources
        self.stackOptions = stackOptions
        self.title = title
        self.owner = owner
    }

    /// `created_at` as ISO 8601 UTC with milliseconds, as JSON output shows it
    /// (`2026-11-21T20:10:27.123Z`). Formatted by hand: listings format 100,000 of them.
    public static func iso8601(_ date: Date) -> String {
        // A microsecond's nudge: a time read back from this text (…44.357Z parses as
        // 44.356999…) prints as it was written.
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000 + 0.001).rounded(.down))
        var t = time_t(totalMillis >= 0 ? totalMillis / 1000 : (totalMillis - 999) / 1000)
        let millis = Int(totalMillis - Int64(t) * 1000)
        var parts = tm()
        gmtime_r(&t, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func put(_ value: Int, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var v = value
            for i in stride(from: width - 1, through: 0, by: -1) { digits[i] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10 }
            out.append(contentsOf: digits)
        }
        put(Int(parts.tm_year) + 1900, 4); out.append(UInt8(ascii: "-"))
        put(Int(parts.tm_mon) + 1, 2); out.append(UInt8(ascii: "-"))
        put(Int(parts.tm_mday), 2); out.append(UInt8(ascii: "T"))
        put(Int(parts.tm_hour), 2); out.append(UInt8(ascii: ":"))
        put(Int(parts.tm_min), 2); out.append(UInt8(ascii: ":"))
        put(Int(parts.tm_sec), 2); out.append(UInt8(ascii: "."))
        put(millis, 3); out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}
