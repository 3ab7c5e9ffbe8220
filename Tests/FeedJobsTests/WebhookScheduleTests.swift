import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// The retry schedule of webhook deliveries runs on the store's clock (the database's, for
/// PostgreSQL), which dated the event and compares `run_at` with its own now, never on the
/// runner's machine's.
@Suite("webhook retry schedule")
struct WebhookScheduleTests {
    @Test("a store whose clock is years behind the machine's: a refused delivery is queued again firstRetry, then twice that, later on the store's clock, not failed as out of its window")
    func retriesOnTheStoresClock() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
        // 2001: with the machine's clock, the event (dated by the store) would be 25 years old.
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_000_000_000))
        let base = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock, clock: clock)
        let roll = try Roll(paths: paths, catalog: base, prober: MediaRecordingProber())
        let uploads = UploadStore(roll: roll, maxSize: 1 << 20, expiry: 3600)
        let request = WebhookJobRequest(url: "http://127.0.0.1:9/hook", secret: String(repeating: "s", count: 16),
                                        event: #"{"id":"evt_1"}"#, eventID: "evt_1", type: "job.done")
        let id = try await base.enqueue(.webhook(request), maxAttempts: 10).id
        let sender = CountingSender(answering: 500)
        // The attempt's own time is added to the delay: at most the time this test waits for it.
        var since = ContinuousClock.now
        let runner = JobRunner(roll: roll, uploads: uploads, slots: 1, lease: 600, pollInterval: 0.05,
                               webhooks: WebhookDelivery(sender: sender, firstRetry: 10, window: 3600))
        let service = Task { try? await runner.run() }
        defer { service.cancel() }

        func queuedAgain(after attempts: Int) async throws -> Job {
            var seen: Job?
            let queued = try await waitUntil(timeout: 30, every: 0.02) {
                seen = try? await base.job(id: id)
                return seen.map { $0.attempts == attempts && $0.state != .running } ?? false
            }
            let job = try #require(seen)
            #expect(queued && job.state == .queued, "\(job.state): \(job.error ?? "")")
            return job
        }
        let first = try await queuedAgain(after: 1)
        var waited = (ContinuousClock.now - since) / .seconds(1)
        #expect(first.error?.contains("answered 500") == true)
        // Due firstRetry seconds after the attempt ended, on the store's clock.
        let due = first.runAt.timeIntervalSince(clock.now())
        #expect(due >= 10 && due <= 10 + waited, "due in \(due) s (waited \(waited) s)")

        // Due when the store's clock says so; then the second attempt, and twice the delay.
        clock.advance(by: due)
        since = ContinuousClock.now
        await runner.wake()
        let second = try await queuedAgain(after: 2)
        waited = (ContinuousClock.now - since) / .seconds(1)
        let dueAgain = second.runAt.timeIntervalSince(clock.now())
        #expect(dueAgain >= 20 && dueAgain <= 20 + waited, "due in \(dueAgain) s (waited \(waited) s)")
        #expect(sender.posts.withLock { $0 } == 2)

        service.cancel()
        await service.value
    }
}
