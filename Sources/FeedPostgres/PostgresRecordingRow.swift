import FeedCore
import Foundation
import PostgresNIO

/// How a ``Recording`` is stored in PostgreSQL's `recording` table: the same columns as the
/// SQLite catalog's, `sources` as JSON array text, `created_at` as seconds since 1970.
enum PostgresRecordingRow {
    static let columns = "id, file_name, original_path, created_at, duration, width, height, fps, video_codec, has_audio, bytes, sha256, sources, stack_options, title, owner"

    /// `SELECT <columns> FROM recording ` (add the rest).
    static let select = "SELECT \(columns) FROM recording "

    /// Decodes a row selected with ``columns``.
    static func recording(_ row: PostgresRow) throws -> Recording {
        let (id, fileName, originalPath, createdAt, duration, width, height, fps, codec, hasAudio, bytes, sha256, sources, options, title, owner) =
            try row.decode((Int64, String, String, Double, Double, Int, Int, Double, String, Bool, Int64, String, String?, String?, String?, String?).self)
        return Recording(
            id: id, fileName: fileName, originalPath: originalPath, createdAt: Date(timeIntervalSince1970: createdAt),
            media: RecordingMedia(duration: duration, width: width, height: height, fps: fps, videoCodec: codec, hasAudio: hasAudio),
            bytes: bytes, sha256: sha256,
            sources: sources.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) },
            stackOptions: options, title: title, owner: owner)
    }

    /// `INSERT … RETURNING <columns>` for `recording` (its id is assigned by the sequence).
    static func insert(_ recording: Recording) -> PostgresQuery {
        let sources = recording.sources.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        let m = recording.media
        return """
            INSERT INTO recording(file_name, original_path, created_at, duration, width, height, fps, video_codec,
                                  has_audio, bytes, sha256, sources, stack_options, title, owner)
            VALUES (\(recording.fileName), \(recording.originalPath), \(recording.createdAt.timeIntervalSince1970),
                    \(m.duration), \(m.width), \(m.height), \(m.fps), \(m.videoCodec), \(m.hasAudio), \(recording.bytes),
                    \(recording.sha256), \(sources), \(recording.stackOptions), \(recording.title), \(recording.owner))
            RETURNING \(unescaped: columns)
            """
    }

    /// Inserts on `connection` (inside a transaction), refusing a duplicate when asked.
    static func insert(_ recording: Recording, refusingDuplicates: Bool, on connection: PostgresConnection, logger: Logger) async throws -> Recording {
        if refusingDuplicates {
            // Serialises inserts of the same bytes: the look-up and the insert are one decision.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(recording.sha256), 0))", logger: logger)
            let query: PostgresQuery = "SELECT id FROM recording WHERE sha256 = \(recording.sha256) AND owner IS NOT DISTINCT FROM \(recording.owner) LIMIT 1"
            for try await existing in try await connection.query(query, logger: logger)
                .decode(Int64.self) {
                throw RollError.duplicate(path: recording.originalPath, existingID: existing)
            }
        }
        var stored = recording
        for try await row in try await connection.query(insert(recording), logger: logger) { stored = try Self.recording(row) }
        return stored
    }
}
