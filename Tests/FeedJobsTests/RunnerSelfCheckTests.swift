import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// A runner whose media is not the roll's: it must not fail the queue.
@Suite("a runner's own faults")
struct RunnerSelfCheckTests {
    @Test("media moved away: the stack fails here, the job goes back uncounted, nothing more is claimed; media back, it claims again and both jobs finish")
    func wrongMediaStopsClaiming() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
        let catalog = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
        let roll = try Roll(paths: paths, catalog: catalog, prober: MediaRecordingProber())
        for seed in 1...2 {
            let clip = try TestMedia.seededClip(folder.url("\(seed).mp4").path, seed: seed, width: 64, height: 48, frames: 10)
            try await roll.add([clip])
        }
        // The media is elsewhere than this runner looks (another machine's mount, a wrong --media).
        let away = folder.url("away")
        try FileManager.default.moveItem(at: paths.recordings, to: away)
        let request = JobRequest.stack(StackJobRequest(front: .recording(1), back: .recording(2)))
        let first = try await catalog.enqueue(request, maxAttempts: 1).id
        let second = try await catalog.enqueue(request, maxAttempts: 1).id
        let log = Locked<[String]>([])
        let runner = JobRunner(roll: roll, uploads: UploadStore(roll: roll, maxSize: 1 << 20, expiry: 3600), slots: 1, lease: 600,
                               pollInterval: 0.05, recheckInterval: 0.2, log: { line in log.withLock { $0.append(line) } })
        let service = Task { try? await runner.run() }
        defer { service.cancel() }

        let stopped = try await waitUntil(timeout: 120, every: 0.02) { await runner.stoppedReason != nil }
        #expect(stopped, "\(log.withLock { $0 })")
        #expect(await runner.stoppedReason?.contains("none of the roll's newest recordings is in its media") == true)
        #expect(log.withLock { $0 }.contains { $0.contains("the job goes back to the queue, its attempt not counted") }, "\(log.withLock { $0 })")
        // With one attempt allowed, a counted failure would have made it failed for good.
        let jobs = try await [first, second].asyncMap { try #require(try await catalog.job(id: $0)) }
        #expect(jobs.map(\.state) == [.queued, .queued] && jobs.map(\.attempts) == [0, 0], "\(jobs)")

        // Back where the runner looks (its checks may have made an empty scratch folder there).
        let back = try await waitUntil(timeout: 30, every: 0.01) {
            try? FileManager.default.removeItem(at: paths.recordings)
            return (try? FileManager.default.moveItem(at: away, to: paths.recordings)) != nil
        }
        #expect(back)
        let done = try await waitUntil(timeout: 240, every: 0.05) {
            try await [first, second].asyncMap { try await catalog.job(id: $0)?.state } == [.done, .done]
        }
        #expect(done, "\(log.withLock { $0 })")
        #expect(await runner.stoppedReason == nil)
        #expect(log.withLock { $0 }.contains("claiming again: its own checks pass"))
        service.cancel()
        await service.value
    }
}

extension Array {
    /// `transform` of each element, in order, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
