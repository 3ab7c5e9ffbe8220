import FeedCore
import Foundation
internal import GRDB

/// How a ``Recording`` is stored in the `recording` table: one column per field, the media
/// facts flat, `sources` as a JSON array text, `created_at` as seconds since 1970.
enum RecordingRow {
    /// The table's columns, in table order; every select lists them so rows decode by position.
    static let columns = "id, file_name, original_path, created_at, duration, width, height, fps, video_codec, has_audio, bytes, sha256, sources, stack_options, title, owner"

    /// `SELECT <columns> FROM recording ` (add the rest).
    static let select = "SELECT \(columns) FROM recording "

    /// Decodes a row selected with ``columns`` (by position: listing 100,000 rows stays cheap).
    static func recording(_ row: Row) -> Recording {
        let sourcesText: String? = row[12]
        return Recording(
            id: row[0], fileName: row[1], originalPath: row[2], createdAt: Date(timeIntervalSince1970: row[3]),
            media: RecordingMedia(duration: row[4], width: row[5], height: row[6], fps: row[7], videoCodec: row[8], hasAudio: row[9]),
            bytes: row[10], sha256: row[11],
            sources: sourcesText.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) },
            stackOptions: row[13], title: row[14], owner: row[15])
    }

    /// Inserts `recording` without its id (SQLite assigns it) and returns the new id.
    static func insert(_ recording: Recording, _ db: Database) throws -> Int64 {
        let sources = recording.sources.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        let m = recording.media
        try db.execute(sql: """
            INSERT INTO recording(file_name, original_path, created_at, duration, width, height, fps, video_codec,
                                  has_audio, bytes, sha256, sources, stack_options, title, owner)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [recording.fileName, recording.originalPath, recording.createdAt.timeIntervalSince1970,
                             m.duration, m.width, m.height, m.fps, m.videoCodec, m.hasAudio,
                             recording.bytes, recording.sha256, sources, recording.stackOptions, recording.title, recording.owner])
        return db.lastInsertedRowID
    }

    /// The recording with this id, or nil.
    static func fetch(id: Int64, _ db: Database) throws -> Recording? {
        try Row.fetchOne(db, sql: select + "WHERE id = ?", arguments: [id]).map(recording)
    }
}
