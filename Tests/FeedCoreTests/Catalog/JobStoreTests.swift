import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``JobStore`` (claims, leases, tokens, completion with its recording),
/// run against every implementation in ``CatalogFactory/all``.
@Suite("JobStore (every implementation)")
struct JobStoreTests {
    @Test("a job keeps its owner through claims; listing by owner shows theirs only", arguments: CatalogFactory.all)
    func owners(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let a = try await store.enqueue(.sampleStack(1), maxAttempts: 5, owner: "alice")
        let b = try await store.enqueue(.sampleStack(2), maxAttempts: 5, owner: "bob")
        let server = try await store.enqueue(.sampleStack(3), maxAttempts: 5)
        #expect(a.owner == "alice" && b.owner == "bob" && server.owner == nil)
        #expect(try await store.jobs(state: nil, limit: nil, ownedBy: "alice").map(\.id) == [a.id])
        #expect(try await store.jobs(state: .queued, limit: nil, ownedBy: "bob").map(\.id) == [b.id])
        #expect(try await store.jobs(state: .running, limit: nil, ownedBy: "bob").isEmpty)
        #expect(try await store.jobs(state: nil, limit: nil).count == 3)
        let lease = try #require(try await store.claim(worker: "w", lease: 30))
        #expect(lease.job.owner == "alice")
    }

    @Test("jobs of one kind come from the store: a thumb behind 1,100 newer no-ops is found, with a state, a limit, an owner", arguments: CatalogFactory.all)
    func byKind(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let thumb = try await store.enqueue(.thumb(RecordingJobRequest(recording: 1)), maxAttempts: 5, owner: "alice")
        var newest: Int64 = 0
        for _ in 0..<1_100 { newest = try await store.enqueue(.noop, maxAttempts: 5).id }
        #expect(try await store.jobs(state: nil, kind: .thumb, limit: 50, ownedBy: nil).map(\.id) == [thumb.id])
        #expect(try await store.jobs(state: .queued, kind: .thumb, limit: 1, ownedBy: "alice").map(\.id) == [thumb.id])
        #expect(try await store.jobs(state: .running, kind: .thumb, limit: nil, ownedBy: nil).isEmpty)
        #expect(try await store.jobs(state: nil, kind: .noop, limit: 2, ownedBy: nil).map(\.id) == [newest, newest - 1])
        #expect(try await store.jobs(state: nil, kind: .webhook, limit: nil, ownedBy: nil).isEmpty)
    }

    @Test("jobs are claimed oldest first, once each; completion inserts the recording and is final", arguments: CatalogFactory.all)
    func lifecycle(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let a = try await store.enqueue(.sampleStack(1), maxAttempts: 5)
        let b = try await store.enqueue(.sampleStack(2), maxAttempts: 5)
        #expect(a.state == .queued && a.attempts == 0 && a.maxAttempts == 5)

        let first = try #require(try await store.claim(worker: "host-a:1", lease: 600))
        let second = try #require(try await store.claim(worker: "host-b:2", lease: 600))
        #expect(first.id == a.id && second.id == b.id && first.token != second.token)
        #expect(first.job.state == .running && first.job.attempts == 1 && first.job.worker == "host-a:1")
        #expect(try #require(first.job.leaseExpiresAt).timeIntervalSinceNow > 20)
        #expect(try await store.claim(worker: "host-a:1", lease: 600) == nil)
        #expect(try await store.setProgress(0.5, lease: first))
        #expect(try await store.job(id: a.id)?.progress == 0.5)

        let stored = try #require(try await store.complete(first, recording: CatalogFactory.recording(1), refusingDuplicates: true))
        #expect(stored.id > 0 && stored.fileName == "clip-1.mp4")
        #expect(try await store.recording(id: stored.id) == stored)
        let done = try #require(try await store.job(id: a.id))
        #expect(done.state == .done && done.recordingID == stored.id && done.progress == 1 && done.request == JobRequest.sampleStack(1).json && (try? done.typedRequest()) == .sampleStack(1))
        await #expect(throws: RollError.leaseLost(jobID: a.id)) {
            try await store.complete(first, recording: CatalogFactory.recording(2), refusingDuplicates: true)
        }
        #expect(try await store.count() == 1)
        #expect(try await !store.fail(first, error: "late"))

        #expect(try await store.fail(second, error: "no audio"))
        #expect(try await store.job(id: b.id)?.state == .failed)
        #expect(try await store.job(id: b.id)?.error == "no audio")
        #expect(try await store.job(id: 999) == nil)
        #expect(try await store.jobs(state: nil, limit: nil).map(\.id) == [b.id, a.id])
        #expect(try await store.jobs(state: .done, limit: 10).map(\.id) == [a.id])
    }

    @Test("a claim of some kinds takes only those, oldest first; the others stay queued for a claim of theirs", arguments: CatalogFactory.all)
    func claimByKind(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let stack = try await store.enqueue(.sampleStack(1), maxAttempts: 5)
        let request = WebhookJobRequest(url: "http://127.0.0.1:9/hook", secret: String(repeating: "s", count: 16),
                                        event: #"{"id":"evt_1"}"#, eventID: "evt_1", type: "job.done")
        let hooks = [try await store.enqueue(.webhook(request), maxAttempts: 5), try await store.enqueue(.webhook(request), maxAttempts: 5)]
        let noop = try await store.enqueue(.noop, maxAttempts: 5)
        let deliveries = try await store.claim(worker: "w", lease: 30, limit: 5, kinds: [.webhook])
        #expect(deliveries.map(\.id) == hooks.map(\.id))
        #expect(try await store.claim(worker: "w", lease: 30, limit: 5, kinds: [.webhook]).isEmpty)
        #expect(try await store.claim(worker: "w", lease: 30, limit: 5, kinds: []).isEmpty)
        let work = try await store.claim(worker: "w", lease: 30, limit: 5, kinds: [.stack, .hls, .thumb, .noop])
        #expect(work.map(\.id) == [stack.id, noop.id])
        #expect(try await store.jobs(state: .queued, limit: nil).isEmpty)
    }

    @Test("one claim of several jobs gives each its own token: each renews, reports and completes under its own, not under another's", arguments: CatalogFactory.all)
    func batchClaim(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        var ids: [Int64] = []
        for _ in 0..<3 { ids.append(try await store.enqueue(.noop, maxAttempts: 5).id) }
        let leases = try await store.claim(worker: "w:1", lease: 600, limit: 3)
        #expect(leases.map(\.id) == ids)
        #expect(Set(leases.map(\.token)).count == 3, "tokens: \(leases.map(\.token))")
        // Another job's token is no lease on this one.
        var borrowed = leases[0]
        borrowed.token = leases[1].token
        #expect(try await !store.renew(borrowed, for: 600))
        #expect(try await !store.setProgress(0.5, lease: borrowed))
        for lease in leases { #expect(try await store.renew(lease, for: 600)) }
        // All three at once (PostgreSQL groups such completions in one statement).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lease in leases { group.addTask { _ = try await store.complete(lease, recording: nil, refusingDuplicates: true) } }
            try await group.waitForAll()
        }
        for id in ids { #expect(try await store.job(id: id)?.state == .done) }
    }

    @Test("an expired lease is lost: renew, progress and completion are refused, nothing is inserted; the job is queued again after a backoff", arguments: CatalogFactory.all)
    func expiredLease(factory: CatalogFactory) async throws {
        let clock = ManualWallClock()
        let store = try await factory.make(try ScratchFolder(), clock: clock)
        let job = try await store.enqueue(.sampleStack(), maxAttempts: 5)
        let lease = try #require(try await store.claim(worker: "w:1", lease: 0.5))
        #expect(try await store.renew(lease, for: 0.5), "held until the clock moves")
        clock.advance(by: 0.7)

        #expect(try await !store.renew(lease, for: 600))
        #expect(try await !store.setProgress(0.9, lease: lease))
        await #expect(throws: RollError.leaseLost(jobID: job.id)) {
            try await store.complete(lease, recording: CatalogFactory.recording(1), refusingDuplicates: false)
        }
        #expect(try await store.count() == 0)

        #expect(try await store.reapExpired() == 1)
        let requeued = try #require(try await store.job(id: job.id))
        #expect(requeued.state == .queued && requeued.attempts == 1)
        #expect(requeued.error?.contains("w:1") == true)
        let backoff = requeued.runAt.timeIntervalSince(requeued.updatedAt)
        #expect(abs(backoff - JobPolicy.backoff(afterAttempts: 1)) < 0.01, "backoff \(backoff) s")
        clock.advance(by: JobPolicy.backoff(afterAttempts: 1) - 0.1)
        #expect(try await store.claim(worker: "w:2", lease: 600) == nil, "the backoff holds the job back")
        clock.advance(by: 0.2)
        let again = try #require(try await store.claim(worker: "w:2", lease: 600))
        #expect(again.job.attempts == 2 && again.token != lease.token)
        #expect(try await !store.renew(lease, for: 600), "the old token stays refused")
        #expect(try await store.complete(again, recording: nil, refusingDuplicates: false) == nil)
        #expect(try await store.job(id: job.id)?.state == .done)
    }

    @Test("after max_attempts expired leases a job is dead with its last error; retry queues it again", arguments: CatalogFactory.all)
    func dead(factory: CatalogFactory) async throws {
        let clock = ManualWallClock()
        let store = try await factory.make(try ScratchFolder(), clock: clock)
        let job = try await store.enqueue(.sampleStack(), maxAttempts: 1)
        _ = try #require(try await store.claim(worker: "w:1", lease: 0.1))
        #expect(try await store.reapExpired() == 0, "not expired before the clock moves")
        clock.advance(by: 0.2)
        #expect(try await store.reapExpired() == 1)
        let dead = try #require(try await store.job(id: job.id))
        #expect(dead.state == .dead && dead.error?.contains("attempt 1 of 1") == true)
        #expect(try await store.reapExpired() == 0)

        let retried = try #require(try await store.retry(id: job.id))
        #expect(retried.changed && retried.job.state == .queued && retried.job.attempts == 0 && retried.job.error == nil)
        let again = try #require(try await store.retry(id: job.id))
        #expect(!again.changed && again.job.state == .queued, "retrying a queued job changes nothing")
        #expect(try await store.retry(id: 999) == nil)
        #expect(try await store.claim(worker: "w:1", lease: 600)?.id == job.id)
    }

    @Test("cancel ends a queued job at once and takes a running one's lease; release gives a job back uncounted", arguments: CatalogFactory.all)
    func cancelAndRelease(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let a = try await store.enqueue(.sampleStack(), maxAttempts: 5)
        let b = try await store.enqueue(.thumb(RecordingJobRequest(recording: 1)), maxAttempts: 5)
        let c = try await store.enqueue(.noop, maxAttempts: 5)
        #expect(try await store.cancel(id: a.id) == JobUpdate(job: try #require(try await store.job(id: a.id)), changed: true))
        #expect(try await store.job(id: a.id)?.state == .cancelled)
        let lease = try #require(try await store.claim(worker: "w:1", lease: 600))
        #expect(lease.id == b.id)
        #expect(try await store.cancel(id: b.id)?.changed == true)
        #expect(try await store.job(id: b.id)?.state == .cancelled)
        #expect(try await !store.renew(lease, for: 600))
        await #expect(throws: RollError.leaseLost(jobID: b.id)) { try await store.complete(lease, recording: nil, refusingDuplicates: false) }
        let final = try #require(try await store.cancel(id: b.id))
        #expect(!final.changed && final.job.state == .cancelled, "cancelling a final job changes nothing")
        #expect(try await store.cancel(id: 999) == nil)

        let held = try #require(try await store.claim(worker: "w:1", lease: 600))
        #expect(held.id == c.id)
        #expect(try await store.release(held))
        let released = try #require(try await store.job(id: c.id))
        #expect(released.state == .queued && released.attempts == 0)
        #expect(try await !store.release(held))
        let retaken = try #require(try await store.claim(worker: "w:2", lease: 600))
        #expect(retaken.id == c.id && retaken.job.attempts == 1)
        #expect(try await store.reclaim(fromWorkers: ["w:9"]) == 0)
        #expect(try await store.reclaim(fromWorkers: ["w:2"]) == 1)
        #expect(try await store.job(id: c.id)?.state == .queued)
        // Every state is counted, those with no job as 0. (c waits out a 1 s backoff: due or
        // not depends on the time; it leaves the picture.)
        _ = try await store.cancel(id: c.id)
        #expect(try await store.jobCounts().byState == [.queued: 0, .running: 0, .done: 0, .failed: 0, .cancelled: 3, .dead: 0])
        #expect(try await store.jobCounts().due == 0)
        _ = try await store.enqueue(.noop, maxAttempts: 5)
        #expect(try await store.jobCounts() == JobCounts(byState: [.queued: 1, .cancelled: 3], due: 1), "a new job is due at once")
        let later = try #require(try await store.claim(worker: "w:3", lease: 600))
        #expect(try await store.jobCounts() == JobCounts(byState: [.running: 1, .cancelled: 3], due: 0))
        #expect(try await store.retryLater(later, error: "endpoint down", at: Date().timeIntervalSince1970 + 3600))
        #expect(try await store.jobCounts() == JobCounts(byState: [.queued: 1, .cancelled: 3], due: 0), "queued, but waiting an hour: not due")
    }

    @Test("an attempt's staged output is remembered until it completes: the next attempt and the clean-up find what a dead one left", arguments: CatalogFactory.all)
    func stagedOutputs(factory: CatalogFactory) async throws {
        let clock = ManualWallClock()
        let store = try await factory.make(try ScratchFolder(), clock: clock)
        let job = try await store.enqueue(.sampleStack(), maxAttempts: 5)
        let first = try #require(try await store.claim(worker: "w:1", lease: 600))
        #expect(try await store.stage(first, output: "a.mp4") == nil)
        #expect(try await store.abandonedOutputs().isEmpty, "a running job's output is not abandoned")

        #expect(try await store.reclaim(fromWorkers: ["w:1"]) == 1)
        let abandoned = try await store.abandonedOutputs()
        #expect(abandoned.count == 1 && abandoned.first?.id == job.id && abandoned.first?.name == "a.mp4")
        await #expect(throws: RollError.leaseLost(jobID: job.id)) { try await store.stage(first, output: "late.mp4") }

        clock.advance(by: JobPolicy.backoff(afterAttempts: 1) + 0.1)
        let second = try #require(try await store.claim(worker: "w:2", lease: 600))
        #expect(try await store.stage(second, output: "b.mp4") == "a.mp4", "the new attempt learns what to remove")
        _ = try await store.complete(second, recording: CatalogFactory.recording(1), refusingDuplicates: false)
        #expect(try await store.abandonedOutputs().isEmpty, "completion forgets the output with the same transaction")

        let other = try await store.enqueue(.sampleStack(), maxAttempts: 5)
        let held = try #require(try await store.claim(worker: "w:3", lease: 600))
        #expect(try await store.stage(held, output: "c.mp4") == nil)
        #expect(try await store.cancel(id: other.id)?.job.state == .cancelled)
        #expect(try await store.abandonedOutputs().map(\.name) == ["c.mp4"])
        try await store.forgetOutput(id: other.id, name: "other.mp4")
        #expect(try await store.abandonedOutputs().count == 1, "forgetting another name changes nothing")
        try await store.forgetOutput(id: other.id, name: "c.mp4")
        #expect(try await store.abandonedOutputs().isEmpty)
    }

    @Test("eight callers cancelling, then retrying, one job at once: exactly one of each changes it", arguments: CatalogFactory.all)
    func racingCancelAndRetry(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let job = try await store.enqueue(.noop, maxAttempts: 5)
        // Eight at once, each returning (changed, state after); each round starts from the
        // state the last one left.
        func race(_ call: @escaping @Sendable () async throws -> JobUpdate?) async throws -> [JobUpdate] {
            try await withThrowingTaskGroup(of: JobUpdate?.self) { group in
                for _ in 0..<8 { group.addTask { try await call() } }
                return try await group.reduce(into: []) { if let update = $1 { $0.append(update) } }
            }
        }
        for round in 1...3 {
            let cancels = try await race { try await store.cancel(id: job.id) }
            #expect(cancels.count == 8 && cancels.filter(\.changed).count == 1, "round \(round): one cancel of eight")
            #expect(cancels.allSatisfy { $0.job.state == .cancelled })
            let retries = try await race { try await store.retry(id: job.id) }
            #expect(retries.count == 8 && retries.filter(\.changed).count == 1, "round \(round): one retry of eight")
            #expect(retries.allSatisfy { $0.job.state == .queued })
        }
    }

    @Test("eight workers claiming 60 jobs at once take each exactly once", arguments: CatalogFactory.all)
    func concurrentClaims(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        for _ in 0..<60 { _ = try await store.enqueue(.noop, maxAttempts: 5) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mine: [Int64] = []
                    while let lease = try await store.claim(worker: "w:\(worker)", lease: 600) {
                        mine.append(lease.id)
                        _ = try await store.complete(lease, recording: nil, refusingDuplicates: false)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 60 && Set(claimed).count == 60)
        #expect(try await store.jobs(state: .done, limit: nil).count == 60)
    }
}

extension JobRequest {
    /// A stack of recordings `n` and `n + 1` (the store keeps requests as they are; nothing checks them here).
    static func sampleStack(_ n: Int64 = 1) -> JobRequest {
        .stack(StackJobRequest(front: .recording(n), back: .recording(n + 1)))
    }
}
