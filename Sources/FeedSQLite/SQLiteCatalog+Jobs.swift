import FeedCore
import Foundation
internal import GRDB

/// The job queue in the roll's SQLite file. Each call is one write transaction; SQLite has
/// one writer at a time, so a claim cannot be taken twice. Times are this machine's clock.
extension SQLiteCatalog {
    private static let jobColumns = """
        SELECT id, kind, state, request, progress, recording_id, error, created_at, updated_at,
               attempts, max_attempts, run_at, started_at, worker, lease_expires_at, owner FROM job
        """ + " "

    private static func job(_ row: Row) -> Job {
        let created = Date(timeIntervalSince1970: row[7])
        let runAt: Double = row[11]
        return Job(id: row[0], kind: row[1], state: Job.State(rawValue: row[2]) ?? .failed, request: row[3], progress: row[4],
                   recordingID: row[5], error: row[6], createdAt: created, updatedAt: Date(timeIntervalSince1970: row[8]),
                   attempts: row[9], maxAttempts: row[10], runAt: runAt > 0 ? Date(timeIntervalSince1970: runAt) : created,
                   startedAt: (row[12] as Double?).map(Date.init(timeIntervalSince1970:)), worker: row[13],
                   leaseExpiresAt: (row[14] as Double?).map(Date.init(timeIntervalSince1970:)), owner: row[15])
    }

    private static func fetch(_ id: Int64, _ db: Database) throws -> Job? {
        try Row.fetchOne(db, sql: jobColumns + "WHERE id = ?", arguments: [id]).map(job)
    }

    /// Whether `lease` is still held: running, same token, not expired.
    private static func holds(_ lease: JobLease, _ db: Database, now: Double) throws -> Bool {
        try Int64.fetchOne(db, sql: "SELECT id FROM job WHERE id = ? AND state = 'running' AND token = ? AND lease_expires_at > ?",
                           arguments: [lease.id, lease.token, now]) != nil
    }

    public func enqueue(_ job: JobRequest, maxAttempts: Int, owner: String?) async throws(RollError) -> Job {
        let kind = job.kind.rawValue, request = job.json
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                INSERT INTO job(kind, state, request, created_at, updated_at, max_attempts, run_at, owner)
                VALUES (?, 'queued', ?, ?, ?, ?, ?, ?)
                """, arguments: [kind, request, now, now, JobPolicy.maxAttempts(maxAttempts), now, owner])
            return try Self.fetch(db.lastInsertedRowID, db)!
        }
    }

    public func job(id: Int64) async throws(RollError) -> Job? {
        try await read { db in try Self.fetch(id, db) }
    }

    public func jobs(state: Job.State?, kind: JobKind?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job] {
        try await read { db in
            var conditions: [String] = [], arguments: StatementArguments = []
            if let kind { conditions.append("kind = ?"); arguments += [kind.rawValue] }
            if let state { conditions.append("state = ?"); arguments += [state.rawValue] }
            if let owner { conditions.append("owner = ?"); arguments += [owner] }
            arguments += [limit ?? -1]
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") + " "
            return try Row.fetchAll(db, sql: Self.jobColumns + filter + "ORDER BY id DESC LIMIT ?", arguments: arguments).map(Self.job)
        }
    }

    public func jobCounts() async throws(RollError) -> JobCounts {
        let now = clock.now().timeIntervalSince1970
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT state, count(*), sum(state = 'queued' AND run_at <= ?) FROM job GROUP BY state", arguments: [now])
                .map { (state: $0[0] as String, count: $0[1] as Int, due: $0[2] as Int) }
        }
        return JobCounts(rows: rows.map { ($0.state, $0.count) }, due: rows.reduce(0) { $0 + $1.due })
    }

    public func claim(worker: String, lease: Double, limit: Int, kinds: Set<JobKind>) async throws(RollError) -> [JobLease] {
        let now = clock.now().timeIntervalSince1970
        let claim = UUID().uuidString
        let names = kinds.map(\.rawValue).sorted()
        guard !names.isEmpty else { return [] }
        return try await write { db in
            let ids = try Int64.fetchAll(db, sql: """
                SELECT id FROM job WHERE state = 'queued' AND run_at <= ? AND kind IN (\(databaseQuestionMarks(count: names.count)))
                ORDER BY id LIMIT ?
                """, arguments: StatementArguments([now] + names.map { $0 as any DatabaseValueConvertible } + [max(1, limit)]))
            return try ids.compactMap { id in
                let token = JobLease.token(claim: claim, job: id)
                try db.execute(sql: """
                    UPDATE job SET state = 'running', progress = 0, attempts = attempts + 1, token = ?, worker = ?,
                                   started_at = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?
                    """, arguments: [token, worker, now, now + lease, now, id])
                return try Self.fetch(id, db).map { JobLease(job: $0, token: token) }
            }
        }
    }

    public func renew(_ lease: JobLease, for seconds: Double) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET lease_expires_at = ? WHERE id = ? AND state = 'running' AND token = ? AND lease_expires_at > ?
                """, arguments: [now + seconds, lease.id, lease.token, now])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func setProgress(_ progress: Double, lease: JobLease) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET progress = ?, updated_at = ? WHERE id = ? AND state = 'running' AND token = ? AND lease_expires_at > ?
                """, arguments: [progress, now, lease.id, lease.token, now])
            return db.changesCount > 0
        }
    }

    public func complete(_ lease: JobLease, recording: Recording?, refusingDuplicates: Bool) async throws(RollError) -> Recording? {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            guard try Self.holds(lease, db, now: now) else { throw RollError.leaseLost(jobID: lease.id) }
            var stored: Recording?
            if let recording {
                if refusingDuplicates, let existing = try Self.id(sha256: recording.sha256, owner: recording.owner, db) {
                    throw RollError.duplicate(path: recording.originalPath, existingID: existing)
                }
                let id = try RecordingRow.insert(recording, db)
                stored = try RecordingRow.fetch(id: id, db)
            }
            try db.execute(sql: """
                UPDATE job SET state = 'done', progress = 1, recording_id = ?, error = NULL, token = NULL,
                               lease_expires_at = NULL, output = NULL, updated_at = ? WHERE id = ?
                """, arguments: [stored?.id, now, lease.id])
            return stored
        }
    }

    public func stage(_ lease: JobLease, output name: String) async throws(RollError) -> String? {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            guard try Self.holds(lease, db, now: now) else { throw RollError.leaseLost(jobID: lease.id) }
            let previous = try String.fetchOne(db, sql: "SELECT output FROM job WHERE id = ?", arguments: [lease.id])
            try db.execute(sql: "UPDATE job SET output = ? WHERE id = ?", arguments: [name, lease.id])
            return previous
        }
    }

    public func abandonedOutputs() async throws(RollError) -> [(id: Int64, name: String)] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, output FROM job WHERE output IS NOT NULL AND state NOT IN ('running', 'done')")
                .map { row -> [String] in [String(row[0] as Int64), row[1]] }
        }
        return rows.map { (id: Int64($0[0]) ?? 0, name: $0[1]) }
    }

    public func forgetOutput(id: Int64, name: String) async throws(RollError) {
        try await write { db in
            try db.execute(sql: "UPDATE job SET output = NULL WHERE id = ? AND output = ?", arguments: [id, name])
        }
    }

    @discardableResult
    public func fail(_ lease: JobLease, error: String) async throws(RollError) -> Bool {
        try await end(lease, set: "state = 'failed', error = ?", [error])
    }

    @discardableResult
    public func retryLater(_ lease: JobLease, error: String, at: Double) async throws(RollError) -> Bool {
        try await end(lease, set: "state = 'queued', progress = 0, error = ?, run_at = ?", [error, at])
    }

    @discardableResult
    public func release(_ lease: JobLease) async throws(RollError) -> Bool {
        try await end(lease, set: "state = 'queued', progress = 0, attempts = max(attempts - 1, 0), run_at = ?", [clock.now().timeIntervalSince1970])
    }

    /// Ends a held lease with `set` (SQL assignments, then their arguments).
    private func end(_ lease: JobLease, set: String, _ arguments: [(any DatabaseValueConvertible)?]) async throws(RollError) -> Bool {
        let now = clock.now().timeIntervalSince1970
        let all = StatementArguments(arguments) + [now, lease.id, lease.token, now]
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET \(set), token = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE id = ? AND state = 'running' AND token = ? AND lease_expires_at > ?
                """, arguments: all)
            return db.changesCount > 0
        }
    }

    public func takeBack(_ selection: LapsedLease.Selection,
                         deciding decide: @escaping @Sendable (LapsedLease) -> LapsedLease.Outcome) async throws(RollError) -> Int {
        let now = clock.now().timeIntervalSince1970
        let condition: String, arguments: StatementArguments
        switch selection {
        case .expired:
            (condition, arguments) = ("lease_expires_at <= ?", [now])
        case .heldBy(let workers):
            guard !workers.isEmpty else { return 0 }
            (condition, arguments) = ("worker IN (\(databaseQuestionMarks(count: workers.count)))", StatementArguments(workers))
        }
        return try await write { db in
            let lapsed = try Row.fetchAll(db, sql: "SELECT id, attempts, max_attempts, worker FROM job WHERE state = 'running' AND " + condition,
                                          arguments: arguments)
                .map { LapsedLease(id: $0[0], attempts: $0[1], maxAttempts: $0[2], worker: $0[3]) }
            for job in lapsed {
                let outcome = decide(job)
                try db.execute(sql: """
                    UPDATE job SET state = ?, progress = 0, token = NULL, lease_expires_at = NULL, run_at = ?, error = ?, updated_at = ?
                    WHERE id = ?
                    """, arguments: [outcome.state.rawValue, now + outcome.delay, outcome.error, now, job.id])
            }
            return lapsed.count
        }
    }

    public func cancel(id: Int64) async throws(RollError) -> JobUpdate? {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET state = 'cancelled', token = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE id = ? AND state IN ('queued', 'running')
                """, arguments: [now, id])
            let changed = db.changesCount > 0
            return try Self.fetch(id, db).map { JobUpdate(job: $0, changed: changed) }
        }
    }

    public func retry(id: Int64) async throws(RollError) -> JobUpdate? {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                UPDATE job SET state = 'queued', attempts = 0, progress = 0, error = NULL, run_at = ?, updated_at = ?
                WHERE id = ? AND state IN ('failed', 'dead', 'cancelled')
                """, arguments: [now, now, id])
            let changed = db.changesCount > 0
            return try Self.fetch(id, db).map { JobUpdate(job: $0, changed: changed) }
        }
    }

    /// SQLite has no notifications: a worker in another process finds new jobs by polling.
    /// (`feed serve` wakes its own workers when it queues a job.)
    public func waitForJobs(timeout: Double) async {
        try? await Task.sleep(for: .seconds(max(0, timeout)))
    }
}
