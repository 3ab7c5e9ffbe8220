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
///
/// A job that fails for a reason that may be the runner's own (a file missing, the store not
/// answering, a write refused, FFmpeg unusable) makes the runner check itself
/// (``RunnerSelfCheck``): when the fault is its own (a wrong `--media`, a full disk), the job
/// goes back to the queue without counting the attempt and the runner stops claiming work (not
/// deliveries), says why (``stoppedReason``, `/healthz`, `/metrics`), and checks again every
/// ``recheckInterval`` seconds. So one misconfigured host cannot fail the whole queue.
///
/// Two lanes: `slots` for the work (stacks, HLS ladders, posters, no-ops) and
/// ``deliverySlots`` more for webhook deliveries, which wait on the network, not the CPU, and so
/// never wait behind a minute-long stack for a slot.
public actor JobRunner: Service {
    /// The queue: the roll whose files the jobs read and write, and the uploads a stack may name.
    let queue: JobQueue
    var roll: Roll { queue.roll }
    let slots: Int
    /// The work's lane (`slots`) and the deliveries' (``deliverySlots``).
    let lanes: [Lane]
    /// Seconds a lease lasts without renewal.
    let lease: Double
    /// Seconds between looks at the queue when no notification comes.
    let pollInterval: Double
    /// Seconds running jobs may take to finish once shutdown begins.
    let grace: Double
    /// Seconds between self-checks while stopped for a fault of its own.
    let recheckInterval: Double
    /// This runner's name in the rows.
    public let worker: WorkerIdentity
    /// Where a line about each job goes (nil: nowhere).
    let log: (@Sendable (String) -> Void)?

    /// Webhook deliveries run at once beside the `slots` jobs.
    public static let deliverySlots = 4
    /// Seconds a lease lasts without renewal unless the caller says otherwise (`feed worker --lease`).
    public static let defaultLease = 30.0
    /// Seconds between looks at the queue when no notification comes (`feed worker --poll`):
    /// PostgreSQL's workers are woken by `NOTIFY`, and a server wakes its own runner when it
    /// queues a job, so this only bounds how late a job queued elsewhere is seen.
    public static let defaultPollInterval = 1.0
    /// Seconds between self-checks of a runner stopped for a fault of its own.
    public static let defaultRecheckInterval = 30.0

    /// What a lane runs: the kinds it claims and how many of them at once.
    struct Lane: Sendable {
        let kinds: Set<JobKind>
        let slots: Int

        /// Whether the lane runs jobs of `kind` (a row's `kind` text).
        func runs(_ kind: String) -> Bool { JobKind(rawValue: kind).map(kinds.contains) ?? false }
    }

    /// One claimed attempt at a job, running here.
    private struct Attempt {
        let lease: JobLease
        let task: Task<Void, Never>
        /// Set when the lease is lost (cancelled, expired): the work stops and is discarded.
        let lost: StopFlag
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
    /// Why this runner stopped claiming work, and since when; nil while it claims.
    var stopped: (reason: String, since: ContinuousClock.Instant)?

    /// Where the jobs' FFmpeg work runs (stacking, packaging, poster frames).
    let pool: BlockingPool
    /// Where housekeeping's blocking steps run (the roll's lock, removing folders): a thread of
    /// its own, so it waits neither behind FFmpeg work nor on Swift's pool.
    private let housekeepingPool = BlockingPool(name: "feed.housekeeping", threads: 1)
    /// How webhook jobs are delivered and retried.
    let webhooks: WebhookDelivery

    /// A runner of at most `slots` jobs at once.
    public init(roll: Roll, uploads: UploadStore, slots: Int, lease: Double = JobRunner.defaultLease, pollInterval: Double = JobRunner.defaultPollInterval, grace: Double = 0,
                recheckInterval: Double = JobRunner.defaultRecheckInterval,
                worker: WorkerIdentity = .current, webhooks: WebhookDelivery = WebhookDelivery(), log: (@Sendable (String) -> Void)? = nil) {
        self.init(queue: JobQueue(roll: roll, uploads: uploads), slots: slots, lease: lease, pollInterval: pollInterval, grace: grace,
                  recheckInterval: recheckInterval, worker: worker, webhooks: webhooks, log: log)
    }

    /// A runner of at most `slots` jobs of `queue` at once, their FFmpeg work on `pool` (nil: a
    /// pool of `slots` threads of its own; a server passes the one its HLS and poster routes use).
    public init(queue: JobQueue, slots: Int, pool: BlockingPool? = nil, lease: Double = JobRunner.defaultLease, pollInterval: Double = JobRunner.defaultPollInterval, grace: Double = 0,
                recheckInterval: Double = JobRunner.defaultRecheckInterval,
                worker: WorkerIdentity = .current, webhooks: WebhookDelivery = WebhookDelivery(), log: (@Sendable (String) -> Void)? = nil) {
        self.queue = queue
        self.webhooks = webhooks
        self.pool = pool ?? BlockingPool(name: "feed.work", threads: slots)
        self.slots = max(1, slots)
        let deliveries: Set<JobKind> = [.webhook]
        lanes = [Lane(kinds: Set(JobKind.allCases).subtracting(deliveries), slots: max(1, slots)),
                 Lane(kinds: deliveries, slots: Self.deliverySlots)]
        self.lease = max(0.5, lease)
        self.pollInterval = pollInterval
        self.grace = grace
        self.recheckInterval = max(0.01, recheckInterval)
        self.worker = worker
        self.log = log
    }

    /// Reaping, abandoned outputs, folders of gone workers: what this runner cleans up.
    var housekeeper: Housekeeper { Housekeeper(roll: roll, worker: worker, log: log) }

    /// This runner's folder for outputs being written: `recordings/.jobs/<worker>/` (HOST:PID).
    var scratch: URL { housekeeper.scratch }

    public func run() async throws {
        let housekeeper = self.housekeeper
        let housekeepingPool = self.housekeepingPool
        defer { housekeepingPool.shutdown() }
        await withTaskExecutorPreference(housekeepingPool) { await housekeeper.takeBackFromDeadProcesses() }
        let jobs = roll.catalog
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
                    await withTaskExecutorPreference(housekeepingPool) { await housekeeper.sweep() }
                }
                if let stopped, ContinuousClock.now - stopped.since >= .seconds(recheckInterval) { await recheck() }
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
        housekeeper.removeScratch()
    }

    /// Whether no job runs here and none is being claimed.
    public var isIdle: Bool { running.isEmpty && !claiming }

    /// Whether a claim is awaiting the store.
    var isClaiming: Bool { claiming }

    /// How many attempts run here.
    var attemptsRunning: Int { running.count }

    private func beginShutdown() { accepting = false; wake() }

    /// Starts queued jobs while a slot of their lane is free.
    private func fill() async {
        for lane in lanes { await fill(lane) }
    }

    /// How many attempts of `lane`'s kinds run here.
    private func running(in lane: Lane) -> Int {
        running.values.count(where: { lane.runs($0.lease.job.kind) })
    }

    private func fill(_ lane: Lane) async {
        // Stopped for a fault of its own, a runner still delivers webhooks: they need no media.
        if stopped != nil && !lane.kinds.contains(.webhook) { return }
        while accepting && running(in: lane) < lane.slots {
            // As many as there are free slots, in one statement.
            let claimed: [JobLease]
            claiming = true
            defer { claiming = false }
            do {
                claimed = try await roll.catalog.claim(worker: worker.description, lease: lease, limit: lane.slots - running(in: lane),
                                                        kinds: lane.kinds)
            } catch {
                log?("cannot claim: \(error.description)")
                return
            }
            for lease in claimed {
                let lost = StopFlag()
                let task = Task {
                    await self.execute(lease, lost: lost)
                    await self.ended(lease.token)
                    // After the attempt is let go of: its slot is free while the events are queued.
                    await self.announce(lease.id)
                }
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

    /// Cancels job `id` through the queue (``JobQueue/cancel(id:)``: one statement decides) and,
    /// when this runner runs it, stops its work at once (no output, no row).
    /// - Returns: the job as cancelled.
    public func cancel(_ id: Int64) async throws -> Job {
        let job = try await queue.cancel(id: id)
        await stop(cancelled: job)
        return job
    }

    /// Stops the attempts running here that `job`, as it was cancelled, names.
    private func stop(cancelled job: Job) async {
        guard job.state == .cancelled, let cancelledAt = job.startedAt else { return }
        // The row names the attempt it cancelled by its start. While the store answered, the job
        // may have been retried and claimed here again: that later attempt runs on. Earlier ones
        // (cancelled elsewhere, not yet noticed) have lost their lease anyway.
        let stopped = running.values.filter { $0.lease.id == job.id && ($0.lease.job.startedAt ?? .distantFuture) <= cancelledAt }
        for attempt in stopped {
            attempt.lost.set()
            attempt.task.cancel()
        }
        for attempt in stopped { await attempt.task.value }
    }

    /// Runs one job to its end under its lease and records how it ended.
    private func execute(_ lease: JobLease, lost: StopFlag) async {
        let started = ContinuousClock.now
        log?("job \(lease.id): \(lease.job.kind), attempt \(lease.job.attempts) of \(lease.job.maxAttempts)")
        let work = Task { try await self.perform(lease, lost: lost) }
        let renewal = LeaseKeeper(jobs: roll.catalog, lease: lease, seconds: self.lease).keep(lost: lost, work: work)
        let outcome = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
        renewal.cancel()
        let seconds = String(format: "%.2f", (ContinuousClock.now - started) / .seconds(1))
        switch outcome {
        case .success(let recording):
            // A delivery says itself how its attempt went (delivered, again later, failed).
            if lease.job.kind != JobKind.webhook.rawValue {
                log?("job \(lease.id): done\(recording.map { " → recording \($0.id)" } ?? "") in \(seconds) s")
            }
        case .failure(let error):
            await ended(lease, error, lost: lost.isSet, seconds: seconds)
        }
    }

    /// Queues the webhook events of a job that ended here: `job.done` or `job.failed` (and
    /// `hls.ready` for a ladder). Deliveries announce nothing, nor does a job still running
    /// (lost, released to the queue).
    private func announce(_ id: Int64) async {
        guard let job = try? await roll.catalog.job(id: id), job.kind != JobKind.webhook.rawValue else { return }
        var events: [WebhookEvent] = []
        switch job.state {
        case .done:
            events.append(.job(.jobDone, job))
            if case let .hls(request)? = try? job.typedRequest() { events.append(.hlsReady(recording: request.recording)) }
        case .failed, .dead: events.append(.job(.jobFailed, job))
        default: return
        }
        for event in events {
            do { try await roll.emit(event) } catch { log?("job \(id): webhook event \(event.type.rawValue) not queued: \(error)") }
        }
        if !events.isEmpty { wake() }
    }

    /// Records a job that did not complete: lost, stopped by a shutdown, or failed.
    private func ended(_ lease: JobLease, _ error: any Error, lost: Bool, seconds: String) async {
        let jobs = roll.catalog
        let leaseLost = lost || (error as? RollError) == .leaseLost(jobID: lease.id)
            || { if case .notSaved(_, .leaseLost) = error as? StackError { true } else { false } }()
        if leaseLost {
            log?("job \(lease.id): lease lost (expired and taken back, or cancelled); its result was discarded")
            return
        }
        if stopping.contains(lease.token) {
            // A shutdown: give the job back to the queue at once, uncounted.
            let released = await Task { () -> Result<Bool, RollError> in
                do throws(RollError) { return .success(try await jobs.release(lease)) } catch { return .failure(error) }
            }.value
            switch released {
            case .success(true): log?("job \(lease.id): released to the queue (shutting down)")
            case .success(false): log?("job \(lease.id): stopped (shutting down); its lease had already ended")
            case .failure(let error):
                log?("job \(lease.id): stopped (shutting down) but not released (\(error.description)); it is taken back when its lease ends")
            }
            return
        }
        if Self.isDatabaseFailure(error) {
            // The catalog itself failed (a dropped connection, an outage): not the job's fault.
            // Its lease runs out and it is taken back, as if this worker had died.
            log?("job \(lease.id): the catalog failed (\((error as? any FeedFailure)?.description ?? "\(error)")); left to its lease")
            return
        }
        let message = (error as? any FeedFailure)?.description ?? "\(error)"
        if Self.mayBeTheRunners(error), let problem = await ownProblem() {
            // The runner's fault, not the job's: the job goes back uncounted, the runner stops.
            let released = await Task { () -> Bool in (try? await jobs.release(lease)) ?? false }.value
            if stopped == nil { stopped = (problem, .now) }
            log?("job \(lease.id): failed here (\(message)), but the fault is this runner's: \(problem); "
                 + (released ? "the job goes back to the queue, its attempt not counted; " : "")
                 + "no more work is claimed here until a check passes (every \(recheckInterval.shown) s)")
            return
        }
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
}
