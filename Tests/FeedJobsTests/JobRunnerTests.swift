import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// The job runner, in process over a gated store. So far `cancel` when the job is retried and
/// claimed again by the same runner while the first attempt still runs: each attempt is its
/// own, and a cancel stops the one it cancelled.
@Suite("JobRunner")
struct JobRunnerTests {
    /// A roll over SQLite whose job store holds every `complete` at a gate (a `noop` job's work
    /// is its completion), and a runner of two slots over it, running; `queued` no-op jobs are
    /// in the queue before it starts.
    struct Fixture {
        let folder: ScratchFolder
        let base: SQLiteCatalog
        let gate: CompletionGate
        let runner: JobRunner
        let service: Task<Void, Never>
        /// The runner's log lines, in order.
        let log = Locked<[String]>([])

        init(queued: Int = 0, webhooks: WebhookDelivery = WebhookDelivery()) async throws {
            folder = try ScratchFolder()
            let paths = RollPaths(home: folder.url("home"))
            try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
            base = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
            gate = CompletionGate()
            let jobs = GatedJobs(base: base, gate: gate)
            let roll = try Roll(paths: paths, catalog: ComposedCatalog(base, jobs: jobs), prober: MediaRecordingProber())
            let uploads = UploadStore(roll: roll, maxSize: 1 << 20, expiry: 3600)
            // A long lease: no renewal notices a cancel during the test, as with a worker that
            // has not yet reached its next renewal.
            for _ in 0..<queued { _ = try await base.enqueue(.noop, maxAttempts: 5) }
            let runner = JobRunner(roll: roll, uploads: uploads, slots: 2, lease: 600, pollInterval: 0.05, webhooks: webhooks,
                                   log: { [log] line in log.withLock { $0.append(line) } })
            self.runner = runner
            service = Task { try? await runner.run() }
        }

        /// Whether the runner logged a line containing `text`.
        func logged(_ text: String) -> Bool { log.withLock { $0.contains { $0.contains(text) } } }

        /// The job as the store has it.
        func job(_ id: Int64) async throws -> Job { try #require(try await base.job(id: id)) }

        func stop() async {
            service.cancel()
            await gate.openAll()
            await service.value
            // The hook may hold the gate and the runner: let go of it, so nothing is left in a cycle.
            await gate.removeHook()
        }
    }

    @Test("cancelled elsewhere and retried: two attempts of one job run here; the first one's end leaves the second tracked, and the runner's cancel stops it")
    func retriedWhileRunning() async throws {
        let f = try await Fixture()
        let id = try await f.base.enqueue(.noop, maxAttempts: 5).id
        let first = try await f.gate.waitForArrival(1)
        // `feed jobs cancel` then `feed jobs retry`, straight to the store: the runner's first
        // attempt has not noticed yet (its lease renews in minutes).
        #expect(try await f.base.cancel(id: id)?.changed == true)
        #expect(try await f.base.retry(id: id)?.changed == true)
        await f.runner.wake()
        let second = try await f.gate.waitForArrival(2)
        #expect(first != second)
        // The first attempt completes: refused (its lease was cancelled), so it ends lost. The
        // runner logs that just before it lets go of the attempt; then the second is still tracked.
        await f.gate.open(first)
        try await f.gate.waitForReturn(first)
        let ended = try await waitUntil(timeout: 30, every: 0.02) { f.logged("job \(id): lease lost") }
        #expect(ended, "the first attempt's end was not logged: \(f.log.withLock { $0 })")
        #expect(await f.runner.attemptsRunning == 1, "the second attempt is still tracked")
        #expect(try await f.job(id).state == .running)
        // Cancelled through the runner: its own attempt stops at once, nothing completes.
        let cancelled = try await f.runner.cancel(id)
        #expect(cancelled.state == .cancelled)
        #expect(await f.runner.attemptsRunning == 0, "the cancel stopped the second attempt and waited for it")
        #expect(await f.gate.returned(second) == .cancelled)
        #expect(try await f.job(id).state == .cancelled)
        await f.stop()
    }

    @Test("four jobs queued for two slots: the first claim takes two, each tracked by its own token; no third runs until a slot is free")
    func claimOfSeveral() async throws {
        let f = try await Fixture(queued: 4)
        let first = try await f.gate.waitForArrival(1), second = try await f.gate.waitForArrival(2)
        #expect(first != second)
        // Once the runner's claim has ended, what it tracks is what the store says runs here.
        #expect(try await waitUntil(timeout: 30, every: 0.02) { await !f.runner.isClaiming })
        #expect(await f.runner.attemptsRunning == 2)
        #expect(try await f.base.jobs(state: .running, limit: nil, ownedBy: nil).count == 2)
        #expect(try await f.base.jobs(state: .queued, limit: nil, ownedBy: nil).count == 2)
        // Each completion frees a slot for the next job.
        for n in 1...4 { await f.gate.open(try await f.gate.waitForArrival(n)) }
        #expect(try await waitUntil(timeout: 30, every: 0.02) {
            try await f.base.jobs(state: .done, limit: nil, ownedBy: nil).count == 4
        })
        #expect(Set(await f.gate.arrivals).count == 4, "four attempts, four tokens")
        await f.stop()
    }

    @Test("both slots held by long jobs: a webhook delivery queued after them is still sent at once, in a lane of its own")
    func deliveryBesideFullSlots() async throws {
        let sender = CountingSender(answering: 204)
        let f = try await Fixture(queued: 3, webhooks: WebhookDelivery(sender: sender))
        // Two of the three no-ops run (held at their completion); the third waits for a slot.
        let held = [try await f.gate.waitForArrival(1), try await f.gate.waitForArrival(2)]
        let request = WebhookJobRequest(url: "http://127.0.0.1:9/hook", secret: String(repeating: "s", count: 16),
                                        event: #"{"id":"evt_1"}"#, eventID: "evt_1", type: "job.done")
        let id = try await f.base.enqueue(.webhook(request), maxAttempts: 3).id
        await f.runner.wake()
        // Its 204 completes it: the third arrival at the gate is the delivery's.
        let delivered = try await f.gate.waitForArrival(3)
        let running = try await f.base.jobs(state: .running, limit: nil, ownedBy: nil)
        #expect(Set(running.map(\.id)) == [1, 2, id], "\(running.map { ($0.id, $0.kind) })")
        #expect(sender.posts.withLock { $0 } == 1)
        #expect(try await f.base.jobs(state: .queued, limit: nil, ownedBy: nil).map(\.id) == [3], "the third no-op still waits")
        await f.gate.open(delivered)
        #expect(try await waitUntil(timeout: 30, every: 0.02) { try await f.job(id).state == .done })
        for token in held { await f.gate.open(token) }
        await f.gate.open(try await f.gate.waitForArrival(4))
        #expect(try await waitUntil(timeout: 30, every: 0.02) {
            try await f.base.jobs(state: .done, limit: nil, ownedBy: nil).count == 4
        })
        await f.stop()
    }

    @Test("retried and claimed again while the runner's cancel awaits the store: that attempt stops, the new one completes")
    func retriedDuringCancel() async throws {
        // Between the store's cancel and the runner reading its answer: a retry, and the runner
        // claiming the job again.
        let f = try await Fixture()
        await f.gate.afterCancel { [base = f.base, runner = f.runner, gate = f.gate] id in
            _ = try? await base.retry(id: id)
            await runner.wake()
            _ = try? await gate.waitForArrival(2)
        }
        let id = try await f.base.enqueue(.noop, maxAttempts: 5).id
        let first = try await f.gate.waitForArrival(1)
        let cancelled = try await f.runner.cancel(id)
        #expect(cancelled.state == .cancelled)
        #expect(await f.gate.returned(first) == .cancelled, "the cancelled attempt was stopped")
        let second = try #require(await f.gate.arrivals.last)
        #expect(second != first)
        #expect(await f.gate.returned(second) == nil, "the new attempt runs on")
        await f.gate.open(second)
        try await f.gate.waitForReturn(second)
        #expect(try await waitUntil(timeout: 30, every: 0.02) { try await f.job(id).state == .done })
        #expect(try await f.job(id).attempts == 1)
        await f.stop()
    }
}

/// Holds each lease's `complete` until the test opens it; records arrivals (by token) and how
/// each call ended; runs a hook after each cancel.
actor CompletionGate {
    enum Ending: Equatable { case forwarded, cancelled }

    private(set) var arrivals: [String] = []
    private var opened: Set<String> = []
    private var openAllTokens = false
    private var endings: [String: Ending] = [:]
    private var cancelHook: (@Sendable (Int64) async -> Void)?

    /// Runs `hook` after every cancel, before the caller sees the store's answer.
    func afterCancel(_ hook: @escaping @Sendable (Int64) async -> Void) { cancelHook = hook }
    func cancelled(_ id: Int64) async { await cancelHook?(id) }
    /// Forgets the hook `afterCancel` set.
    func removeHook() { cancelHook = nil }

    func arrive(_ token: String) { arrivals.append(token) }
    func open(_ token: String) { opened.insert(token) }
    func openAll() { openAllTokens = true }
    func isOpen(_ token: String) -> Bool { openAllTokens || opened.contains(token) }
    func end(_ token: String, _ ending: Ending) { endings[token] = ending }
    func returned(_ token: String) -> Ending? { endings[token] }

    /// The token of the `n`th arrival, once it came (30 s at most).
    func waitForArrival(_ n: Int) async throws -> String {
        try await waitUntil(timeout: 30, every: 0.02) { arrivals.count >= n }
        return try #require(arrivals.count >= n ? arrivals[n - 1] : nil)
    }

    /// Waits until `token`'s call returned (30 s at most).
    func waitForReturn(_ token: String) async throws {
        #expect(try await waitUntil(timeout: 30, every: 0.02) { endings[token] != nil }, "call \(token) did not return in 30 s")
    }
}

/// A job store that forwards to `base`, but holds `complete` at `gate` until opened (a task
/// cancelled meanwhile is refused as a lost lease) and runs the gate's hook after a cancel.
struct GatedJobs: JobStore {
    let base: any JobStore
    let gate: CompletionGate
    /// Refuses every `stage` as a lost lease: a save that fails before its rename.
    var refusesStage = false

    func complete(_ lease: JobLease, recording: Recording?, refusingDuplicates: Bool) async throws(RollError) -> Recording? {
        await gate.arrive(lease.token)
        while !(await gate.isOpen(lease.token)) {
            if Task.isCancelled {
                await gate.end(lease.token, .cancelled)
                throw RollError.leaseLost(jobID: lease.id)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        defer { Task { await gate.end(lease.token, .forwarded) } }
        return try await base.complete(lease, recording: recording, refusingDuplicates: refusingDuplicates)
    }

    func cancel(id: Int64) async throws(RollError) -> JobUpdate? {
        let update = try await base.cancel(id: id)
        await gate.cancelled(id)
        return update
    }

    func retryLater(_ lease: JobLease, error: String, at: Double) async throws(RollError) -> Bool {
        try await base.retryLater(lease, error: error, at: at)
    }
    func jobCounts() async throws(RollError) -> JobCounts { try await base.jobCounts() }
    func enqueue(_ request: JobRequest, maxAttempts: Int, owner: String?) async throws(RollError) -> Job {
        try await base.enqueue(request, maxAttempts: maxAttempts, owner: owner)
    }
    func job(id: Int64) async throws(RollError) -> Job? { try await base.job(id: id) }
    func jobs(state: Job.State?, kind: JobKind?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job] {
        try await base.jobs(state: state, kind: kind, limit: limit, ownedBy: owner)
    }
    func claim(worker: String, lease: Double, limit: Int, kinds: Set<JobKind>) async throws(RollError) -> [JobLease] {
        try await base.claim(worker: worker, lease: lease, limit: limit, kinds: kinds)
    }
    func renew(_ lease: JobLease, for seconds: Double) async throws(RollError) -> Bool { try await base.renew(lease, for: seconds) }
    func setProgress(_ progress: Double, lease: JobLease) async throws(RollError) -> Bool {
        try await base.setProgress(progress, lease: lease)
    }
    func stage(_ lease: JobLease, output name: String) async throws(RollError) -> String? {
        if refusesStage { throw RollError.leaseLost(jobID: lease.id) }
        return try await base.stage(lease, output: name)
    }
    func abandonedOutputs() async throws(RollError) -> [(id: Int64, name: String)] { try await base.abandonedOutputs() }
    func forgetOutput(id: Int64, name: String) async throws(RollError) { try await base.forgetOutput(id: id, name: name) }
    func fail(_ lease: JobLease, error: String) async throws(RollError) -> Bool { try await base.fail(lease, error: error) }
    func release(_ lease: JobLease) async throws(RollError) -> Bool { try await base.release(lease) }
    func takeBack(_ selection: LapsedLease.Selection,
                  deciding decide: @escaping @Sendable (LapsedLease) -> LapsedLease.Outcome) async throws(RollError) -> Int {
        try await base.takeBack(selection, deciding: decide)
    }
    func retry(id: Int64) async throws(RollError) -> JobUpdate? { try await base.retry(id: id) }
    func waitForJobs(timeout: Double) async { await base.waitForJobs(timeout: timeout) }
}
