import Foundation

/// Where jobs are kept and how workers share them. Every call is one atomic transaction, so
/// a crash leaves each job in one state, and several workers (processes, machines) may call
/// it at once: a job is claimed by one worker at a time.
///
/// `SQLiteCatalog` (FeedSQLite) keeps jobs in the roll's database (one machine); `PostgresCatalog` in
/// PostgreSQL (`FOR UPDATE SKIP LOCKED`), for workers on many machines. Both run the same
/// test suite (`JobStoreTests`).
public protocol JobStore: Sendable {
    /// Queues `request` as a new job and wakes waiting workers; returns it with its id. The
    /// request is stored as it is: ``JobQueue/enqueue(_:maxAttempts:)`` checks it first.
    func enqueue(_ request: JobRequest, maxAttempts: Int, owner: String?) async throws(RollError) -> Job

    /// The job with this id, or nil.
    func job(id: Int64) async throws(RollError) -> Job?

    /// Jobs newest first, only those in `state` and of `kind` when given (an index on kind,
    /// state and id finds them among any number of others); at most `limit` (nil: all).
    func jobs(state: Job.State?, kind: JobKind?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job]

    /// How many jobs are in each state (every state named, 0 for none) and how many queued ones
    /// are due, in one statement.
    func jobCounts() async throws(RollError) -> JobCounts

    /// Takes up to `limit` of the oldest queued jobs of `kinds` that are due, marks them running
    /// under a fresh token held by `worker` for `lease` seconds, and counts the attempt; oldest
    /// first, empty when none is due.
    func claim(worker: String, lease: Double, limit: Int, kinds: Set<JobKind>) async throws(RollError) -> [JobLease]

    /// Extends a lease to `lease` seconds from now; false when it was lost (expired and taken
    /// back, cancelled, finished): the worker must stop and discard its work.
    func renew(_ lease: JobLease, for lease: Double) async throws(RollError) -> Bool

    /// Records progress (0…1) under a held lease; false when the lease was lost.
    @discardableResult
    func setProgress(_ progress: Double, lease: JobLease) async throws(RollError) -> Bool

    /// Records, under a held lease, that this attempt is about to rename its output `name` into
    /// `recordings/`; returns the name an earlier attempt recorded (a file its dead or stalled
    /// worker may have left, which the caller removes), or nil.
    /// - Throws: ``RollError/leaseLost(jobID:)`` when the lease is no longer held.
    func stage(_ lease: JobLease, output name: String) async throws(RollError) -> String?

    /// Outputs recorded by attempts that never completed, on jobs that no worker holds now:
    /// files in `recordings/` without a row, to remove (then ``forgetOutput(id:name:)``).
    func abandonedOutputs() async throws(RollError) -> [(id: Int64, name: String)]

    /// Forgets job `id`'s recorded output `name` once its file is gone (nothing if it changed).
    func forgetOutput(id: Int64, name: String) async throws(RollError)

    /// Ends the job `done` and, in the same transaction, inserts `recording` (its id is
    /// ignored; refusing a duplicate of the same bytes when asked) as the job's result.
    /// Returns the recording as stored (nil when none was given).
    /// - Throws: ``RollError/leaseLost(jobID:)`` when the lease is no longer held (expired,
    ///   cancelled, taken over): nothing is written. ``RollError/duplicate(path:existingID:)``.
    func complete(_ lease: JobLease, recording: Recording?, refusingDuplicates: Bool) async throws(RollError) -> Recording?

    /// Ends the job `failed` with `error` (the work itself failed); false when the lease was lost.
    @discardableResult
    func fail(_ lease: JobLease, error: String) async throws(RollError) -> Bool

    /// Gives a held job back to the queue to run again at `at` (seconds since 1970), its attempt
    /// counted and `error` kept as the last one (a webhook delivery that got no 2xx); false when
    /// the lease was lost.
    @discardableResult
    func retryLater(_ lease: JobLease, error: String, at: Double) async throws(RollError) -> Bool

    /// Gives a held job back to the queue at once without counting the attempt (a worker
    /// shutting down); false when the lease was lost.
    @discardableResult
    func release(_ lease: JobLease) async throws(RollError) -> Bool

    /// Takes back the running jobs of `selection`, in one transaction: each one's row is read
    /// (skipping rows another transaction holds), `decide` says what it becomes, and the row is
    /// written so: state, `run_at` (now + the outcome's delay), error, no token or lease, progress
    /// 0. Returns how many were taken back. Callers use ``reapExpired()`` and
    /// ``reclaim(fromWorkers:)``, which decide by ``JobPolicy``.
    func takeBack(_ selection: LapsedLease.Selection,
                  deciding decide: @escaping @Sendable (LapsedLease) -> LapsedLease.Outcome) async throws(RollError) -> Int

    /// Cancels a job that is not final (a running one's lease is lost: its worker stops at its
    /// next renewal), in one statement. Returns the job as it is now and whether this call
    /// cancelled it (not when it was final already), or nil when unknown.
    func cancel(id: Int64) async throws(RollError) -> JobUpdate?

    /// Queues a `failed`, `dead` or `cancelled` job again with its attempts reset, in one
    /// statement. Returns the job as it is now and whether this call queued it (not when it was
    /// queued, running or done), or nil when unknown.
    func retry(id: Int64) async throws(RollError) -> JobUpdate?

    /// Returns when a job may have been queued (a notification) or after `timeout` seconds,
    /// whichever comes first.
    func waitForJobs(timeout: Double) async
}

extension JobStore {
    /// Takes up to `limit` of the oldest queued jobs of any kind that are due (see
    /// ``claim(worker:lease:limit:kinds:)``).
    public func claim(worker: String, lease: Double, limit: Int) async throws(RollError) -> [JobLease] {
        try await claim(worker: worker, lease: lease, limit: limit, kinds: Set(JobKind.allCases))
    }

    /// Takes the oldest queued job that is due (see ``claim(worker:lease:limit:kinds:)``); nil when none is.
    public func claim(worker: String, lease: Double) async throws(RollError) -> JobLease? {
        try await claim(worker: worker, lease: lease, limit: 1).first
    }
}

extension JobStore {
    /// Running jobs whose lease has expired go back to the queue after a backoff
    /// (``JobPolicy/backoff(afterAttempts:)``), or become `dead` after their `maxAttempts`
    /// claims. Returns how many were taken back.
    @discardableResult
    public func reapExpired() async throws(RollError) -> Int {
        try await takeBack(.expired, deciding: JobPolicy.afterLapse)
    }

    /// Running jobs held by one of `workers` (processes known to be gone) go back to the queue at
    /// once, as a reaped lease would; returns how many.
    @discardableResult
    public func reclaim(fromWorkers workers: [String]) async throws(RollError) -> Int {
        guard !workers.isEmpty else { return 0 }
        return try await takeBack(.heldBy(workers), deciding: JobPolicy.afterLapse)
    }

    /// Queues one of the server's own jobs (no owner).
    public func enqueue(_ request: JobRequest, maxAttempts: Int) async throws(RollError) -> Job {
        try await enqueue(request, maxAttempts: maxAttempts, owner: nil)
    }

    /// Everyone's jobs, newest first.
    public func jobs(state: Job.State?, limit: Int?) async throws(RollError) -> [Job] {
        try await jobs(state: state, kind: nil, limit: limit, ownedBy: nil)
    }

    /// Jobs of every kind, newest first.
    public func jobs(state: Job.State?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job] {
        try await jobs(state: state, kind: nil, limit: limit, ownedBy: owner)
    }
}
