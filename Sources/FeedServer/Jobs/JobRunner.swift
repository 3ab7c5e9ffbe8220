import FeedCore
import Foundation
import ServiceLifecycle

/// Runs queued jobs, at most `slots` at once, as a lifecycle service: what `feed serve` runs
/// beside its routes and what `feed worker` is. Any number of runners, in any number of
/// processes on any number of hosts, may share one job store.
///
/// A runner claims a job under a lease and renews it every third of the lease while it works.
/// When a renewal fails (the lease expired and the job was taken back, or it was cancelled),
/// the work is stopped and discarded. Completion is token-checked and inserts a stack's
/// recording in the same transaction, so a job is done once whatever happens to its workers.
/// At start, jobs and outputs left by dead processes of this host are taken back at once.
/// On shutdown, running jobs get `grace` seconds to finish; the rest are stopped (no output, no
/// row) and released to the queue.
public actor JobRunner: Service {
    /// The roll whose files the jobs read and write.
    let roll: Roll
    /// Finished uploads a stack may name as a source.
    let uploads: UploadStore
    let slots: Int
    /// Seconds a lease lasts without renewal.
    let lease: Double
    /// Seconds between looks at the queue when no notification comes.
    let pollInterval: Double
    /// Seconds running jobs may take to finish once shutdown begins.
    let grace: Double
    /// This runner's name in the rows.
    public let worker: WorkerIdentity
    /// Where a line about each job goes (nil: nowhere).
    let log: (@Sendable (String) -> Void)?

    /// One claimed attempt at a job, running here.
    private struct Attempt {
        let lease: JobLease
        let task: Task<Void, Never>
        /// Set when the lease is lost (cancelled, expired): the work stops and is discarded.
        let lost: LostFlag
    }

    /// Attempts running here by their lease's token. A job may have two: one whose lease was
    /// lost (cancelled elsewhere, not yet noticed) and a later one claimed after a retry.
    private var running: [String: Attempt] = [:]
    /// A claim is under way: its jobs may already be `running` in the store but not yet in
    /// `running` here (the actor is free while it awaits the store).
    private var claiming = false
    /// Tokens of the attempts a shutdown stops (they are released to the queue, not failed).
    private var stopping: Set<String> = []
    private var wakeUp: CheckedContinuation<Void, Never>?
    /// A wake-up that came while no one slept: the next sleep returns at once.
    private var pendingWake = false
    private var accepting = true

    /// A runner of at most `slots` jobs at once.
    public init(roll: Roll, uploads: UploadStore, slots: Int, lease: Double = 30, pollInterval: Double = 0.5, grace: Double = 0,
                worker: WorkerIdentity = .current, log: (@Sendable (String) -> Void)? = nil) {
        self.roll = roll
        self.uploads = uploads
        self.slots = max(1, slots)
        self.lease = max(0.5, lease)
        self.pollInterval = pollInterval
        self.grace = grace
        self.worker = worker
        self.log = log
    }

    /// This runner's folder for outputs being written: `recordings/.jobs/<worker>/` (HOST:PID).
    var scratch: URL { roll.paths.jobs.appendingPathComponent(worker.description, isDirectory: true) }

    public func run() async throws {
        await takeBackFromDeadProcesses()
        let jobs = roll.jobStore
        let listener = Task { [pollInterval] in
            while !Task.isCancelled {
                await jobs.waitForJobs(timeout: pollInterval)
                await self.wake()
            }
        }
        var lastReap = ContinuousClock.now - .seconds(3600)
        await withGracefulShutdownHandler {
            while accepting && !Task.isShuttingDownGracefully && !Task.isCancelled {
                if ContinuousClock.now - lastReap > .seconds(lease / 2) {
                    lastReap = .now
                    if let n = try? await jobs.reapExpired(), n > 0 { log?("took back \(n) job(s) whose lease expired") }
                    await removeAbandonedOutputs()
                }
                await fill()
                await sleep()
            }
        } onGracefulShutdown: {
            Task { await self.beginShutdown() }
        }
        accepting = false
        if grace > 0, !running.isEmpty {
            log?("shutting down: \(running.count) job(s) get \(Int(grace)) s to finish")
            let deadline = ContinuousClock.now + .seconds(grace)
            while !running.isEmpty && ContinuousClock.now < deadline { await sleep() }
        }
        for (token, attempt) in running { stopping.insert(token); attempt.task.cancel() }
        for attempt in running.values { await attempt.task.value }
        listener.cancel()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Whether no job runs here and none is being claimed.
    public var isIdle: Bool { running.isEmpty && !claiming }

    /// How many attempts run here.
    var attemptsRunning: Int { running.count }

    private func beginShutdown() { accepting = false; wake() }

    /// Starts queued jobs while a slot is free.
    private func fill() async {
        while accepting && running.count < slots {
            // As many as there are free slots, in one statement.
            let claimed: [JobLease]
            claiming = true
            defer { claiming = false }
            do { claimed = try await roll.jobStore.claim(worker: worker.description, lease: lease, limit: slots - running.count) } catch {
                log?("cannot claim: \(error.description)")
                return
            }
            for lease in claimed {
                let lost = LostFlag()
                let task = Task { await self.execute(lease, lost: lost); await self.ended(lease.token) }
                running[lease.token] = Attempt(lease: lease, task: task, lost: lost)
            }
            if claimed.isEmpty { return }
        }
    }

    private func ended(_ token: String) {
        running[token] = nil
        stopping.remove(token)
        wake()
    }

    /// A job may have been queued (or a slot freed): look at once instead of at the next poll.
    public func wake() {
        guard let wakeUp else {
            pendingWake = true
            return
        }
        wakeUp.resume()
        self.wakeUp = nil
    }

    private func sleep() async {
        if pendingWake {
            pendingWake = false
            return
        }
        await withCheckedContinuation { continuation in
            wakeUp?.resume()
            wakeUp = continuation
        }
    }

    /// Cancels job `id`: its row at once (a running job's lease is lost) and, when this runner
    /// runs it, its work (no output, no row). Returns the job as it ends and whether this call
    /// cancelled it, or nil when unknown.
    public func cancel(_ id: Int64) async throws(RollError) -> JobUpdate? {
        let update = try await roll.jobStore.cancel(id: id)
        guard let job = update?.job, job.state == .cancelled, let cancelledAt = job.startedAt else { return update }
        // The row names the attempt it cancelled by its start. While the store answered, the job
        // may have been retried and claimed here again: that later attempt runs on. Earlier ones
        // (cancelled elsewhere, not yet noticed) have lost their lease anyway.
        let stopped = running.values.filter { $0.lease.id == id && ($0.lease.job.startedAt ?? .distantFuture) <= cancelledAt }
        for attempt in stopped {
            attempt.lost.set()
            attempt.task.cancel()
        }
        for attempt in stopped { await attempt.task.value }
        return update
    }

    /// Runs one job to its end under its lease and records how it ended.
    private func execute(_ lease: JobLease, lost: LostFlag) async {
        let jobs = roll.jobStore
        let started = ContinuousClock.now
        log?("job \(lease.id): \(lease.job.kind), attempt \(lease.job.attempts) of \(lease.job.maxAttempts)")
        let work = Task { try await self.perform(lease, lost: lost) }
        let renewal = Task { [seconds = self.lease] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(seconds / 3))
                if Task.isCancelled { break }
                if (try? await jobs.renew(lease, for: seconds)) == false {
                    lost.set()
                    work.cancel()
                    break
                }
            }
        }
        let outcome = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
        renewal.cancel()
        let seconds = String(format: "%.2f", (ContinuousClock.now - started) / .seconds(1))
        switch outcome {
        case .success(let recording):
            log?("job \(lease.id): done\(recording.map { " → recording \($0.id)" } ?? "") in \(seconds) s")
        case .failure(let error):
            await ended(lease, error, lost: lost.isSet, seconds: seconds)
        }
    }

    /// Records a job that did not complete: lost, stopped by a shutdown, or failed.
    private func ended(_ lease: JobLease, _ error: any Error, lost: Bool, seconds: String) async {
        let jobs = roll.jobStore
        let leaseLost = lost || (error as? RollError) == .leaseLost(jobID: lease.id)
            || { if case .notSaved(_, .leaseLost) = error as? StackError { true } else { false } }()
        if leaseLost {
            log?("job \(lease.id): lease lost (expired and taken back, or cancelled); its result was discarded")
            return
        }
        if stopping.contains(lease.token) {
            // A shutdown: give the job back to the queue at once, uncounted.
            await Task { _ = try? await jobs.release(lease) }.value
            log?("job \(lease.id): released to the queue (shutting down)")
            return
        }
        if Self.isDatabaseFailure(error) {
            // The catalog itself failed (a dropped connection, an outage): not the job's fault.
            // Its lease runs out and it is taken back, as if this worker had died.
            log?("job \(lease.id): the catalog failed (\((error as? any FeedFailure)?.description ?? "\(error)")); left to its lease")
            return
        }
        let message = (error as? any FeedFailure)?.description ?? "\(error)"
        // From a task of its own: this one may be cancelled, and its calls would be refused.
        await Task { _ = try? await jobs.fail(lease, error: message) }.value
        log?("job \(lease.id): failed after \(seconds) s: \(message)")
    }

    /// Whether `error` is the catalog failing rather than the job's work.
    private static func isDatabaseFailure(_ error: any Error) -> Bool {
        switch error {
        case RollError.database: true
        case StackError.notSaved(_, .database): true
        default: false
        }
    }

    /// Removes the files that attempts which never completed renamed into `recordings/` (their
    /// worker died between the rename and the completion): rows say which, so no file that a
    /// recording owns is touched.
    private func removeAbandonedOutputs() async {
        guard let abandoned = try? await roll.jobStore.abandonedOutputs() else { return }
        for (id, name) in abandoned {
            do {
                try roll.removeAbandonedOutput(named: name)
                try await roll.jobStore.forgetOutput(id: id, name: name)
                log?("job \(id): removed \(name), left by an attempt that did not complete")
            } catch {
                log?("job \(id): cannot remove \(name): \(error.description)")
            }
        }
        await removeFoldersOfGoneWorkers()
    }

    /// How long a worker's empty `.jobs/` folder stays after its last change when no running job
    /// names that worker.
    static let goneWorkerFolderAge: TimeInterval = 3600

    /// Removes the empty `.jobs/` folders of workers that hold no running job and have not
    /// written there for ``goneWorkerFolderAge``: those of processes on other machines or in
    /// other containers that ended (a restarted container is a new pid namespace, so a new
    /// name), whose outputs ``removeAbandonedOutputs()`` already removed. rmdir(2) takes only an
    /// empty folder, so nothing being written is touched.
    private func removeFoldersOfGoneWorkers() async {
        guard let held = try? await roll.jobStore.jobs(state: .running, limit: nil) else { return }
        let busy = Set(held.compactMap(\.worker) + [worker.description])
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: roll.paths.jobs.path)) ?? [] where !busy.contains(name) && WorkerIdentity(name) != nil {
            let path = roll.paths.jobs.appendingPathComponent(name).path
            guard let modified = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  Date().timeIntervalSince(modified) > Self.goneWorkerFolderAge else { continue }
            if rmdir(path) == 0 { log?("removed \(name)'s empty outputs folder (no running job, untouched for an hour)") }
        }
    }

    /// Takes back what dead processes of this host left: their running jobs (at once, not after
    /// their lease) and their half-written outputs under `.jobs/`.
    private func takeBackFromDeadProcesses() async {
        let jobs = roll.jobStore
        if let held = try? await jobs.jobs(state: .running, limit: nil) {
            let dead = Set(held.compactMap { $0.worker }.filter { WorkerIdentity($0)?.isDeadLocalProcess == true })
            if !dead.isEmpty, let n = try? await jobs.reclaim(fromWorkers: Array(dead)), n > 0 {
                log?("took back \(n) job(s) of exited process(es) \(dead.sorted().joined(separator: ", "))")
            }
        }
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: roll.paths.jobs.path)) ?? [] {
            let url = roll.paths.jobs.appendingPathComponent(name)
            if let owner = WorkerIdentity(name) {
                if owner.isDeadLocalProcess || owner == worker { try? fm.removeItem(at: url) }
            } else if let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                      Date().timeIntervalSince(modified) > 3600 {
                try? fm.removeItem(at: url) // an output of an older feed's layout
            }
        }
    }
}
