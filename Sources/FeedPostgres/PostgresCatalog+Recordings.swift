import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func insert(_ recording: Recording, refusingDuplicates: Bool) async throws(RollError) -> Recording {
        try await transaction { connection, logger in
            try await PostgresRecordingRow.insert(recording, refusingDuplicates: refusingDuplicates, on: connection, logger: logger)
        }
    }

    public func insertAll(_ recordings: [Recording]) async throws(RollError) -> Int {
        try await transaction { connection, logger in
            for recording in recordings { try await connection.query(PostgresRecordingRow.insert(recording), logger: logger) }
            var count = 0
            for try await n in try await connection.query("SELECT count(*) FROM recording", logger: logger).decode(Int.self) { count = n }
            return count
        }
    }

    public func recording(id: Int64) async throws(RollError) -> Recording? {
        try await recordings("\(unescaped: PostgresRecordingRow.select) WHERE id = \(id)").first
    }

    public func recordings(after cursor: RecordingCursor?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Recording] {
        let limit = limit.map { max(0, $0) }
        // NULL matches every owner: one statement, whatever is asked.
        guard let cursor else {
            return try await recordings("""
                \(unescaped: PostgresRecordingRow.select) WHERE (\(owner)::text IS NULL OR owner = \(owner))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """)
        }
        return try await recordings("""
            \(unescaped: PostgresRecordingRow.select)
            WHERE (created_at < \(cursor.createdAt) OR (created_at = \(cursor.createdAt) AND id < \(cursor.id)))
              AND (\(owner)::text IS NULL OR owner = \(owner))
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """)
    }

    public func recordings(offset: Int, limit: Int?) async throws(RollError) -> [Recording] {
        let limit = limit.map { max(0, $0) }
        return try await recordings("\(unescaped: PostgresRecordingRow.select) ORDER BY created_at DESC, id DESC LIMIT \(limit) OFFSET \(max(0, offset))")
    }

    public func count() async throws(RollError) -> Int {
        let rows = try await rows("SELECT count(*) FROM recording")
        return try await decoded { try rows.first?.decode(Int.self) ?? 0 }
    }

    @discardableResult
    public func delete(id: Int64) async throws(RollError) -> Bool {
        // A published recording takes its post with it (and the post's likes and comments).
        do {
            return try await social { db in
                if let row = try await db.row("\(Self.postColumns(.admin)) WHERE p.recording_id = \(id) FOR UPDATE OF p") {
                    try await Self.removePost(db, try Self.post(row))
                }
                return try await db.execute("DELETE FROM recording WHERE id = \(id) RETURNING id") > 0
            }
        } catch {
            if case .store(let error) = error { throw error }
            throw RollError.database(path: location.description, reason: error.description)
        }
    }

    public func recordingID(sha256: String, owner: String?) async throws(RollError) -> Int64? {
        let rows = try await rows("SELECT id FROM recording WHERE sha256 = \(sha256) AND owner IS NOT DISTINCT FROM \(owner) LIMIT 1")
        return try await decoded { try rows.first?.decode(Int64.self) }
    }

    @discardableResult
    public func updateContent(_ recording: Recording) async throws(RollError) -> Bool {
        let m = recording.media
        return try await !rows("""
            UPDATE recording SET duration = \(m.duration), width = \(m.width), height = \(m.height), fps = \(m.fps),
                                 video_codec = \(m.videoCodec), has_audio = \(m.hasAudio), bytes = \(recording.bytes),
                                 sha256 = \(recording.sha256)
            WHERE id = \(recording.id) RETURNING id
            """).isEmpty
    }

    private func recordings(_ query: PostgresQuery) async throws(RollError) -> [Recording] {
        let rows = try await rows(query)
        return try await decoded { try rows.map(PostgresRecordingRow.recording) }
    }

    /// Runs `body`, turning a decoding error into a RollError naming the database.
    func decoded<T>(_ body: () async throws -> T) async throws(RollError) -> T {
        do { return try await body() } catch { throw mapped(error) }
    }
}
