import Foundation
internal import GRDB

extension SQLiteCatalog: JobStore {
    private static let jobColumns = "SELECT id, kind, state, request, progress, recording_id, error, created_at, updated_at FROM job "

    private static func job(_ row: Row) -> Job {
        Job(id: row[0], kind: row[1], state: Job.State(rawValue: row[2]) ?? .failed, request: row[3], progress: row[4],
            recordingID: row[5], error: row[6], createdAt: Date(timeIntervalSince1970: row[7]), updatedAt: Date(timeIntervalSince1970: row[8]))
    }

    public func enqueue(kind: String, request: String) async throws(RollError) -> Job {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "INSERT INTO job(kind, state, request, created_at, updated_at) VALUES (?, 'queued', ?, ?, ?)",
                           arguments: [kind, request, now, now])
            let id = db.lastInsertedRowID
            return try Row.fetchOne(db, sql: Self.jobColumns + "WHERE id = ?", arguments: [id]).map(Self.job)!
        }
    }

    public func job(id: Int64) async throws(RollError) -> Job? {
        try await read { db in try Row.fetchOne(db, sql: Self.jobColumns + "WHERE id = ?", arguments: [id]).map(Self.job) }
    }

    public func claimNext() async throws(RollError) -> Job? {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM job WHERE state = 'queued' ORDER BY id LIMIT 1") else { return nil }
            try db.execute(sql: "UPDATE job SET state = 'running', progress = 0, updated_at = ? WHERE id = ?", arguments: [now, id])
            return try Row.fetchOne(db, sql: Self.jobColumns + "WHERE id = ?", arguments: [id]).map(Self.job)
        }
    }

    public func setProgress(_ progress: Double, id: Int64) async throws(RollError) {
        let now = Date().timeIntervalSince1970
        try await write { db in
            try db.execute(sql: "UPDATE job SET progress = ?, updated_at = ? WHERE id = ? AND state = 'running'", arguments: [progress, now, id])
        }
    }

    @discardableResult
    public func finish(id: Int64, state: Job.State, recordingID: Int64?, error: String?) async throws(RollError) -> Bool {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET state = ?, recording_id = ?, error = ?, progress = CASE WHEN ? = 'done' THEN 1 ELSE progress END,
                               updated_at = ? WHERE id = ? AND state IN ('queued', 'running')
                """, arguments: [state.rawValue, recordingID, error, state.rawValue, now, id])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func requeueRunning() async throws(RollError) -> Int {
        let now = Date().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "UPDATE job SET state = 'queued', progress = 0, updated_at = ? WHERE state = 'running'", arguments: [now])
            return db.changesCount
        }
    }
}
