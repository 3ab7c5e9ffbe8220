import FeedCore
import Foundation
internal import GRDB

/// Upload records in the roll's SQLite file. Each call is one write transaction (SQLite has one
/// writer at a time), so a claim cannot be taken twice, by this process or another one on the
/// same roll. Times are this machine's clock.
extension SQLiteCatalog {
    private static let uploadColumns = """
        SELECT id, length, metadata, created_at, state, recording_id, error, finished_at, claim_expires_at, owner, synced_offset FROM upload
        """ + " "

    private static func record(_ row: Row, now: Double) -> UploadRecord {
        let expires: Double? = row[8]
        return UploadRecord(id: row[0], length: row[1], metadata: row[2], created: row[3],
                            phase: UploadRecord.Phase(rawValue: row[4]) ?? .failed, recordingID: row[5], error: row[6],
                            finished: row[7], held: (expires ?? 0) > now, owner: row[9], synced: row[10])
    }

    public func insertUpload(_ record: UploadRecord) async throws(RollError) {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO upload(id, length, metadata, created_at, state, recording_id, error, finished_at, owner)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.id, record.length, record.metadata, record.created, record.phase.rawValue,
                                 record.recordingID, record.error, record.finished, record.owner])
        }
    }

    public func uploadRecord(id: String) async throws(RollError) -> UploadRecord? {
        let now = clock.now().timeIntervalSince1970
        return try await read { db in
            try Row.fetchOne(db, sql: Self.uploadColumns + "WHERE id = ?", arguments: [id]).map { Self.record($0, now: now) }
        }
    }

    public func uploadRecords(phase: UploadRecord.Phase?) async throws(RollError) -> [UploadRecord] {
        let now = clock.now().timeIntervalSince1970
        return try await read { db in
            let filter = phase == nil ? "" : "WHERE state = ? "
            return try Row.fetchAll(db, sql: Self.uploadColumns + filter + "ORDER BY created_at, id",
                                    arguments: StatementArguments(phase.map { [$0.rawValue] } ?? []))
                .map { Self.record($0, now: now) }
        }
    }

    public func claimUpload(id: String, token: String, for seconds: Double) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE upload SET claim_token = ?, claim_expires_at = ?, synced_offset = NULL
                WHERE id = ? AND (claim_token IS NULL OR claim_expires_at <= ?)
                """, arguments: [token, now + seconds, id, now])
            return db.changesCount > 0
        }
    }

    public func renewUpload(id: String, token: String, for seconds: Double, synced: Int64?) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE upload SET claim_expires_at = ?, synced_offset = coalesce(?, synced_offset)
                WHERE id = ? AND claim_token = ? AND claim_expires_at > ?
                """, arguments: [now + seconds, synced, id, token, now])
            return db.changesCount > 0
        }
    }

    public func releaseUpload(id: String, token: String) async throws(RollError) {
        try await write { db in
            try db.execute(sql: "UPDATE upload SET claim_token = NULL, claim_expires_at = NULL, synced_offset = NULL WHERE id = ? AND claim_token = ?",
                           arguments: [id, token])
        }
    }

    public func finishUpload(_ record: UploadRecord, token: String) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE upload SET state = ?, recording_id = ?, error = ?, finished_at = ?, claim_token = NULL, claim_expires_at = NULL,
                                  synced_offset = NULL
                WHERE id = ? AND claim_token = ? AND claim_expires_at > ?
                """, arguments: [record.phase.rawValue, record.recordingID, record.error, record.finished, record.id, token, now])
            return db.changesCount > 0
        }
    }

    public func deleteUpload(id: String, token: String) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "DELETE FROM upload WHERE id = ? AND claim_token = ? AND claim_expires_at > ?", arguments: [id, token, now])
            return db.changesCount > 0
        }
    }
}
