import Foundation
import GRDB

/// One saved recording: a row of the `recording` table and a file in `recordings/`.
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

    /// A recording with every field given; `id` 0 until inserted.
    public init(id: Int64 = 0, fileName: String, originalPath: String, createdAt: Date, media: RecordingMedia,
                bytes: Int64, sha256: String, sources: [String]? = nil, stackOptions: String? = nil, title: String? = nil) {
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
    }

    /// The table's columns, in table order.
    enum CodingKeys: String, CaseIterable, ColumnExpression {
        case id, fileName = "file_name", originalPath = "original_path", createdAt = "created_at"
        case duration, width, height, fps, videoCodec = "video_codec", hasAudio = "has_audio", bytes, sha256
        case sources, stackOptions = "stack_options", title
    }

    /// `created_at` as ISO 8601 UTC with milliseconds, as JSON output shows it
    /// (`2026-11-21T20:10:27.123Z`). Formatted by hand: listings format 100,000 of them.
    public static func iso8601(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
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

extension Recording: FetchableRecord, MutablePersistableRecord {
    /// The table name.
    public static let databaseTableName = "recording"

    /// Every request selects the columns in ``CodingKeys`` order, so rows decode by position.
    public static var databaseSelection: [any SQLSelectable] { CodingKeys.allCases.map { $0 as any SQLSelectable } }

    /// Decodes a row selected with ``databaseSelection`` (by position: listing 100,000 rows stays cheap).
    public init(row: Row) throws {
        id = row[0]
        fileName = row[1]
        originalPath = row[2]
        createdAt = Date(timeIntervalSince1970: row[3])
        media = RecordingMedia(duration: row[4], width: row[5], height: row[6], fps: row[7], videoCodec: row[8], hasAudio: row[9])
        bytes = row[10]
        sha256 = row[11]
        let sourcesText: String? = row[12]
        sources = sourcesText.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        stackOptions = row[13]
        title = row[14]
    }

    /// Encodes every column except `id` when it is still 0 (SQLite assigns it).
    public func encode(to container: inout PersistenceContainer) throws {
        if id != 0 { container[CodingKeys.id.rawValue] = id }
        container[CodingKeys.fileName.rawValue] = fileName
        container[CodingKeys.originalPath.rawValue] = originalPath
        container[CodingKeys.createdAt.rawValue] = createdAt.timeIntervalSince1970
        container[CodingKeys.duration.rawValue] = media.duration
        container[CodingKeys.width.rawValue] = media.width
        container[CodingKeys.height.rawValue] = media.height
        container[CodingKeys.fps.rawValue] = media.fps
        container[CodingKeys.videoCodec.rawValue] = media.videoCodec
        container[CodingKeys.hasAudio.rawValue] = media.hasAudio
        container[CodingKeys.bytes.rawValue] = bytes
        container[CodingKeys.sha256.rawValue] = sha256
        container[CodingKeys.sources.rawValue] = sources.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        container[CodingKeys.stackOptions.rawValue] = stackOptions
        container[CodingKeys.title.rawValue] = title
    }

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
