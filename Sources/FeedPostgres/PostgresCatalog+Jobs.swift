import FeedCore
import Foundation
import PostgresNIO

/// The job queue: the SKIP LOCKED pattern. A claim locks the oldest due queued row, skipping rows
/// other workers are claiming, and hands out a fresh token with a lease; every later change
/// checks the token and the lease in its WHERE clause, so a worker that lost its lease changes
/// nothing. Times are the database's (`now()`), never a worker's clock.
extension PostgresCatalog {
    static let jobColumns = """
        id, kind, state, request, progress, recording_id, error, created_at, updated_at,
        attempts, max_attempts, run_at, started_at, worker, lease_expires_at, owner
        """

    /// Seconds since 1970 on the database's clock, as SQL.
    /// "Now" in a statement: the database's clock, or the catalog's test clock when it has one.
    var now: String {
        clock.map { "(\($0.now().timeIntervalSince1970))::double precision" } ?? "extract(epoch from clock_timestamp())"
    }

    static func job(_ row: PostgresRow) throws -> Job {
        let (id, kind, state, request, progress, recordingID, error, created, updated, attempts, maxAttempts, runAt, started, worker, lease, owner) =
            try row.decode((Int64, String, String, String, Double, Int64?, String?, Double, Double, Int, Int, Double, Double?, String?, Double?, String?).self)
        return Job(id: id, kind: kind, state: Job.State(rawValue: state) ?? .failed, request: request, progress: progress,
                   recordingID: recordingID, error: error, createdAt: Date(timeIntervalSince1970: created),
                   updatedAt: Date(timeIntervalSince1970: updated), attempts: attempts, maxAttempts: maxAttempts,
                   runAt: Date(timeIntervalSince1970: runAt), startedAt: started.map(Date.init(timeIntervalSince1970:)),
                   worker: worker, leaseExpiresAt: lease.map(Date.init(timeIntervalSince1970:)), owner: owner)
    }

    private func jobs(_ query: PostgresQuery) async throws(RollError) -> [Job] {
        let rows = try await rows(query)
        return try await decoded { try rows.map(Self.job) }
    }

    public func enqueue(_ job: JobRequest, maxAttempts: Int, owner: String?) async throws(RollError) -> Job {
        let kind = job.kind.rawValue, request = job.json
        let jobs = try await jobs("""
            INSERT INTO job(kind, state, request, created_at, updated_at, max_attempts, run_at, owner)
            VALUES (\(kind), 'queued', \(request), \(unescaped: now), \(unescaped: now), \(JobPolicy.maxAttempts(maxAttempts)), \(unescaped: now), \(owner))
            RETURNING \(unescaped: Self.jobColumns)
            """)
        guard let job = jobs.first else { throw RollError.database(path: location.description, reason: "the new job was not returned") }
        return job
    }

    public func job(id: Int64) async throws(RollError) -> Job? {
        try await jobs("SELECT \(unescaped: Self.jobColumns) FROM job WHERE id = \(id)").first
    }

    public func jobs(state: Job.State?, kind: JobKind?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job] {
        let limit = limit.map { max(0, $0) }, kind = kind?.rawValue
        // NULL matches every owner, every kind.
        if let state {
            return try await jobs("""
                SELECT \(unescaped: Self.jobColumns) FROM job WHERE state = \(state.rawValue) AND (\(owner)::text IS NULL OR owner = \(owner))
                AND (\(kind)::text IS NULL OR kind = \(kind))
                ORDER BY id DESC LIMIT \(limit)
                """)
        }
        return try await jobs("""
            SELECT \(unescaped: Self.jobColumns) FROM job WHERE (\(owner)::text IS NULL OR owner = \(owner))
            AND (\(kind)::text IS NULL OR kind = \(kind)) ORDER BY id DESC LIMIT \(limit)
            """)
    }

    public func jobCounts() async throws(RollError) -> JobCounts {
        let rows = try await rows("""
            SELECT state, count(*)::bigint, (count(*) FILTER (WHERE state = 'queued' AND run_at <= \(unescaped: now)))::bigint
            FROM job GROUP BY state
            """)
        return try await decoded {
            let counts = try rows.map { row in try row.decode((String, Int, Int).self) }
            return JobCounts(rows: counts.map { ($0.0, $0.1) }, due: counts.reduce(0) { $0 + $1.2 })
        }
    }

    public func claim(worker: String, lease: Double, limit: Int, kinds: Set<JobKind>) async throws(RollError) -> [JobLease] {
        let claim = UUID().uuidString
        let names = kinds.map(\.rawValue).sorted()
        guard !names.isEmpty else { return [] }
        // Each job its own token (the claim's secret and its id), as SQLite's claim gives them.
        let claimed = try await jobs("""
            UPDATE job SET state = 'running', progress = 0, attempts = attempts + 1, token = \(claim) || '.' || id::text, worker = \(worker),
                           started_at = \(unescaped: now), lease_expires_at = \(unescaped: now) + \(lease),
                           updated_at = \(unescaped: now)
            WHERE id IN (SELECT id FROM job WHERE state = 'queued' AND run_at <= \(unescaped: now) AND kind = ANY(\(names))
                         ORDER BY id FOR UPDATE SKIP LOCKED LIMIT \(max(1, limit)))
            RETURNING \(unescaped: Self.jobColumns)
            """)
        return claimed.sorted { $0.id < $1.id }.map { JobLease(job: $0, token: JobLease.token(claim: claim, job: $0.id)) }
    }

    public func renew(_ lease: JobLease, for seconds: Double) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE job SET lease_expires_at = \(unescaped: now) + \(seconds)
            WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    @discardableResult
    public func setProgress(_ progress: Double, lease: JobLease) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE job SET progress = \(progress), updated_at = \(unescaped: now)
            WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    public func complete(_ lease: JobLease, recording: Recording?, refusingDuplicates: Bool) async throws(RollError) -> Recording? {
        guard let recording else {
            // Nothing to insert: grouped with other such completions into one statement, each
            // checked by its own token and lease.
            let done: Bool
            do { done = try await completions.complete(id: lease.id, token: lease.token, catalog: self) } catch { throw mapped(error) }
            if !done { throw RollError.leaseLost(jobID: lease.id) }
            return nil
        }
        let now = self.now
        return try await transaction { connection, logger in
            // Lock the job row first: a reaper or a cancel waits for this transaction, and this
            // one sees theirs if they committed first.
            var held = false
            for try await _ in try await connection.query("""
                SELECT id FROM job
                WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
                FOR UPDATE
                """, logger: logger) { held = true }
            guard held else { throw RollError.leaseLost(jobID: lease.id) }
            let stored = try await PostgresRecordingRow.insert(recording, refusingDuplicates: refusingDuplicates, on: connection, logger: logger)
            try await connection.query("""
                UPDATE job SET state = 'done', progress = 1, recording_id = \(stored.id), error = NULL, token = NULL, output = NULL,
                               lease_expires_at = NULL, updated_at = \(unescaped: now)
                WHERE id = \(lease.id)
                """, logger: logger)
            return stored
        }
    }

    public func stage(_ lease: JobLease, output name: String) async throws(RollError) -> String? {
        let rows = try await rows("""
            UPDATE job SET output = \(name)
            FROM (SELECT id, output AS previous FROM job WHERE id = \(lease.id) FOR UPDATE) AS before
            WHERE job.id = before.id AND job.state = 'running' AND job.token = \(lease.token)
              AND job.lease_expires_at > \(unescaped: now)
            RETURNING before.previous
            """)
        guard let row = rows.first else { throw RollError.leaseLost(jobID: lease.id) }
        return try await decoded { try row.decode(String?.self) }
    }

    public func abandonedOutputs() async throws(RollError) -> [(id: Int64, name: String)] {
        let rows = try await rows("SELECT id, output FROM job WHERE output IS NOT NULL AND state NOT IN ('running', 'done')")
        return try await decoded {
            try rows.map { row in
                let (id, name) = try row.decode((Int64, String).self)
                return (id: id, name: name)
            }
        }
    }

    public func forgetOutput(id: Int64, name: String) async throws(RollError) {
        try await execute("UPDATE job SET output = NULL WHERE id = \(id) AND output = \(name)")
    }

    @discardableResult
    public func fail(_ lease: JobLease, error: String) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE job SET state = 'failed', error = \(error), token = NULL, lease_expires_at = NULL, updated_at = \(unescaped: now)
            WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    @discardableResult
    public func retryLater(_ lease: JobLease, error: String, at: Double) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE job SET state = 'queued', progress = 0, error = \(error), run_at = \(at),
                           token = NULL, lease_expires_at = NULL, updated_at = \(unescaped: now)
            WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    @discardableResult
    public func release(_ lease: JobLease) async throws(RollError) -> Bool {
        try await !rows("""
            UPDATE job SET state = 'queued', progress = 0, attempts = greatest(attempts - 1, 0), run_at = \(unescaped: now),
                           token = NULL, lease_expires_at = NULL, updated_at = \(unescaped: now)
            WHERE id = \(lease.id) AND state = 'running' AND token = \(lease.token) AND lease_expires_at > \(unescaped: now)
            RETURNING id
            """).isEmpty
    }

    /// Rows another transaction holds (`SKIP LOCKED`) are left for a later call.
    public func takeBack(_ selection: LapsedLease.Selection,
                         deciding decide: @escaping @Sendable (LapsedLease) -> LapsedLease.Outcome) async throws(RollError) -> Int {
        let now = self.now, columns = "SELECT id, attempts, max_attempts, worker FROM job WHERE state = 'running' AND"
        let select: PostgresQuery
        switch selection {
        case .expired:
            select = "\(unescaped: columns) lease_expires_at <= \(unescaped: now) FOR UPDATE SKIP LOCKED"
        case .heldBy(let workers):
            guard !workers.isEmpty else { return 0 }
            select = "\(unescaped: columns) worker = ANY(\(workers)) FOR UPDATE SKIP LOCKED"
        }
        return try await transaction { connection, logger in
            var lapsed: [LapsedLease] = []
            for try await row in try await connection.query(select, logger: logger) {
                let (id, attempts, maxAttempts, worker) = try row.decode((Int64, Int, Int, String?).self)
                lapsed.append(LapsedLease(id: id, attempts: attempts, maxAttempts: maxAttempts, worker: worker))
            }
            for job in lapsed {
                let outcome = decide(job)
                try await connection.query("""
                    UPDATE job SET state = \(outcome.state.rawValue), progress = 0, token = NULL, lease_expires_at = NULL,
                                   run_at = \(unescaped: now) + \(outcome.delay), error = \(outcome.error), updated_at = \(unescaped: now)
                    WHERE id = \(job.id)
                    """, logger: logger)
            }
            return lapsed.count
        }
    }

    public func cancel(id: Int64) async throws(RollError) -> JobUpdate? {
        try await update(id, jobs("""
            UPDATE job SET state = 'cancelled', token = NULL, lease_expires_at = NULL, updated_at = \(unescaped: now)
            WHERE id = \(id) AND state IN ('queued', 'running') RETURNING \(unescaped: Self.jobColumns)
            """))
    }

    public func retry(id: Int64) async throws(RollError) -> JobUpdate? {
        try await update(id, jobs("""
            UPDATE job SET state = 'queued', attempts = 0, progress = 0, error = NULL, run_at = \(unescaped: now),
                           updated_at = \(unescaped: now)
            WHERE id = \(id) AND state IN ('failed', 'dead', 'cancelled') RETURNING \(unescaped: Self.jobColumns)
            """))
    }

    /// The job as the update left it (its RETURNING row), or, when the update changed nothing,
    /// as it is (nil when unknown).
    private func update(_ id: Int64, _ returned: [Job]) async throws(RollError) -> JobUpdate? {
        if let job = returned.first { return JobUpdate(job: job, changed: true) }
        return try await job(id: id).map { JobUpdate(job: $0, changed: false) }
    }

    /// Waits for a `feed_jobs` notification (any job queued anywhere) or the timeout.
    public func waitForJobs(timeout: Double) async {
        listenOnce()
        await wakeups.wait(timeout: timeout)
    }
}
