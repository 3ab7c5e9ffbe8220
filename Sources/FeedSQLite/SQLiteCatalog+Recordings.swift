import FeedCore
import FeedSocial
internal import GRDB

extension SQLiteCatalog {
    public func insert(_ recording: Recording, refusingDuplicates: Bool) async throws(RollError) -> Recording {
        try await write { db in
            if refusingDuplicates, let existing = try Self.id(sha256: recording.sha256, owner: recording.owner, db) {
                throw RollError.duplicate(path: recording.originalPath, existingID: existing)
            }
            let id = try RecordingRow.insert(recording, db)
            // Read back, so the caller holds exactly what later reads return (dates included).
            return try RecordingRow.fetch(id: id, db) ?? recording
        }
    }

    public func insertAll(_ recordings: [Recording]) async throws(RollError) -> Int {
        try await write { db in
            for recording in recordings { _ = try RecordingRow.insert(recording, db) }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0
        }
    }

    public func recording(id: Int64) async throws(RollError) -> Recording? {
        try await read { db in try RecordingRow.fetch(id: id, db) }
    }

    public func recordings(after cursor: RecordingCursor?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Recording] {
        try await read { db in
            let order = "ORDER BY created_at DESC, id DESC LIMIT ?"
            var conditions: [String] = [], arguments: StatementArguments = []
            if let cursor {
                conditions.append("(created_at < ? OR (created_at = ? AND id < ?))")
                arguments += [cursor.createdAt, cursor.createdAt, cursor.id]
            }
            if let owner {
                conditions.append("owner = ?")
                arguments += [owner]
            }
            arguments += [limit ?? -1]
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") + " "
            return try Row.fetchAll(db, sql: RecordingRow.select + filter + order, arguments: arguments).map(RecordingRow.recording)
        }
    }

    public func recordings(offset: Int, limit: Int?) async throws(RollError) -> [Recording] {
        try await read { db in
            try Row.fetchAll(db, sql: RecordingRow.select + "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                             arguments: [limit ?? -1, max(0, offset)]).map(RecordingRow.recording)
        }
    }

    public func count() async throws(RollError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0 }
    }

    @discardableResult
    public func delete(id: Int64) async throws(RollError) -> Bool {
        try await write { db in
            // A published recording takes its post with it (and the post's likes and comments).
            if let post = try Self.row(db, "\(literal: Self.postColumns(.admin)) WHERE p.recording_id = \(id)").map(Self.post) {
                try Self.removePost(db, post)
            }
            try db.execute(sql: "DELETE FROM recording WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func recordingID(sha256: String, owner: String?) async throws(RollError) -> Int64? {
        try await read { db in try Self.id(sha256: sha256, owner: owner, db) }
    }

    @discardableResult
    public func updateContent(_ recording: Recording) async throws(RollError) -> Bool {
        try await write { db in
            let m = recording.media
            try db.execute(sql: """
                UPDATE recording SET duration = ?, width = ?, height = ?, fps = ?, video_codec = ?, has_audio = ?,
                                     bytes = ?, sha256 = ? WHERE id = ?
                """, arguments: [m.duration, m.width, m.height, m.fps, m.videoCodec, m.hasAudio,
                                 recording.bytes, recording.sha256, recording.id])
            return db.changesCount > 0
        }
    }

    static func id(sha256: String, owner: String?, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM recording WHERE sha256 = ? AND owner IS ? LIMIT 1", arguments: [sha256, owner])
    }
}
