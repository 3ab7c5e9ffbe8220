import FeedTestSupport
import Foundation
import Testing
@testable import FeedCore

/// The queue's rules, once for every catalog: the catalogs only persist what these decide.
@Suite("JobPolicy")
struct JobPolicyTests {
    @Test("backoff doubles from 1 s and stops at 60 s")
    func backoff() {
        #expect((0...9).map(JobPolicy.backoff(afterAttempts:)) == [1, 1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(JobPolicy.backoff(afterAttempts: .max) == 60)
    }

    @Test("a lapsed lease is queued again until its last claim, then dead; its error names the worker and the attempt")
    func afterLapse() {
        let queued = JobPolicy.afterLapse(LapsedLease(id: 1, attempts: 2, maxAttempts: 5, worker: "host:7"))
        #expect(queued == .init(state: .queued, delay: 2, error: "lease held by host:7 expired (attempt 2 of 5)"))
        let dead = JobPolicy.afterLapse(LapsedLease(id: 1, attempts: 5, maxAttempts: 5, worker: nil))
        #expect(dead == .init(state: .dead, delay: 16, error: "lease held by ? expired (attempt 5 of 5)"))
        #expect(JobPolicy.maxAttempts(0) == 1 && JobPolicy.maxAttempts(-3) == 1 && JobPolicy.maxAttempts(7) == 7)
    }

    @Test("each catalog writes exactly what the decision says, and reads the lapsed job as it is", arguments: CatalogFactory.all)
    func catalogsOnlyPersist(factory: CatalogFactory) async throws {
        // Given a claimed job whose lease has run out on the catalog's clock,
        let clock = ManualWallClock()
        let store = try await factory.make(try ScratchFolder(), clock: clock)
        let job = try await store.enqueue(.noop, maxAttempts: 9)
        _ = try #require(try await store.claim(worker: "w:3", lease: 1))
        clock.advance(by: 2)
        // when it is taken back by a decision of the test's own,
        let seen = Locked<[LapsedLease]>([])
        let taken = try await store.takeBack(.expired) { lapsed in
            seen.withLock { $0.append(lapsed) }
            return .init(state: .dead, delay: 7, error: "decided here")
        }
        // then the catalog handed over the row as it was and stored the outcome to the letter.
        #expect(taken == 1)
        #expect(seen.withLock { $0 } == [LapsedLease(id: job.id, attempts: 1, maxAttempts: 9, worker: "w:3")])
        let stored = try #require(try await store.job(id: job.id))
        #expect(stored.state == .dead && stored.error == "decided here" && stored.leaseExpiresAt == nil)
        #expect(abs(stored.runAt.timeIntervalSince(stored.updatedAt) - 7) < 0.01, "run_at \(stored.runAt), updated \(stored.updatedAt)")
        #expect(try await store.takeBack(.heldBy(["w:3"])) { _ in .init(state: .queued, delay: 0, error: "") } == 0, "no longer running")
    }
}
