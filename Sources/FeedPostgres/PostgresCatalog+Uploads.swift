import FeedCore
import Foundation
import PostgresNIO

/// Upload records shared by every server: a claim is a conditional UPDATE (free, or its lease
/// ran out) that hands out a token, and every later change checks that token and the lease in
/// its WHERE clause. Lease times are the database's clock, never a server's.
extension PostgresCatalog {
    private var uploadColumns: String {
        """
        id, length, metadata, created_at, state, recording_id, error, finished_at,
        coalesce(claim_expires_at > \(now), false), owner, synced_offset
        """
    }

    private static func record(_ row: PostgresRow) throws -> UploadRecord {
        let (id, length, metadata, created, state, recordingID, error, finished, held, owner, synced) =
            try row.decode((String, Int64, String, Double, String, Int64?, String?, Double?, Bool, String?, Int64?).self)
        return UploadRecord(id: id, length: length, metadata: metadata, created: created,
                            phase: UploadRecord.Phase(rawValue: state) ?? .failed, recordingID: recordingID, error: error,
                            finished: finished, held: held, owner: owner, synced: synced)
    }

    private func records(_ query: PostgresQuery) async throws(RollError) -> [UploadRecord] {
        let rows = try await rows(query)
        return try await decoded { try rows.map(Self.record) }
    }

    public func insertUpload(_ record: UploadRecord) async throws(RollError) {
        try await execute("""
            INSERT INTO upload(id, length, metadata, created_at, state, recording_id, error, finished_at, owner)
            VALUES (\(record.id), \(record.length), \(record.metadata), \(record.created), \(record.phase.rawValue),
                    \(record.recordingID), \(record.error), \(record.finished), \(record.owner))
            """)
    }

    public func uploadRecord(id: String) async throws(RollError) -> UploadRecord? {
        try await records("SELECT \(unescaped: uploadColumns) FROM upload WHERE id = \(id)").first
    }

    public func uploadRecords(phase: UploadRecord.Phase?) async throws(RollError) -> [UploadRecord] {
        if let phase {
            return try await records("SELECT \(unescaped: uploadColumns) FROM upload WHERE state = \(phase.rawValue) ORDER BY created_at, id")
        }
        return try await records("SELECT \(unescaped: uploadColumns) FROM upload ORDER BY created_at, id")
    }

    public func claimUpload(id: String, token: String, for seconds: Double) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE upload SET claim_token = \(token), claim_expires_at = \(unescaped: now) + \(seconds), synced_offset = NULL
            WHERE id = \(id) AND (claim_token IS NULL OR claim_expires_at <= \(unescaped: now))
            RETURNING id
            """).isEmpty
    }

    public func renewUpload(id: String, token: String, for seconds: Double, synced: Int64?) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE upload SET claim_expires_at = \(unescaped: now) + \(seconds), synced_offset = coalesce(\(synced), synced_offset)
            WHERE id = \(id) AND claim_token = \(token) AND claim_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    public func releaseUpload(id: String, token: String) async throws(RollError) {
        try await execute("UPDATE upload SET claim_token = NULL, claim_expires_at = NULL, synced_offset = NULL WHERE id = \(id) AND claim_token = \(token)")
    }

    public func finishUpload(_ record: UploadRecord, token: String) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE upload SET state = \(record.phase.rawValue), recording_id = \(record.recordingID), error = \(record.error),
                              finished_at = \(record.finished), claim_token = NULL, claim_expires_at = NULL, synced_offset = NULL
            WHERE id = \(record.id) AND claim_token = \(token) AND claim_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    public func deleteUpload(id: String, token: String) async throws(RollError) -> Bool {
        try await !rows("""
            DELETE FROM upload WHERE id = \(id) AND claim_token = \(token) AND claim_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }
}
