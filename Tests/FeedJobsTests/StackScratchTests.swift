import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// A stack job writes into its runner's scratch folder (`recordings/.jobs/HOST:PID/`) and then
/// renames into the roll; when the save is refused, the written file must not wait there for the
/// runner to stop.
@Suite("a stack job's scratch output")
struct StackScratchTests {
    @Test("the save refused before the rename (the lease lost): the written output is removed at once, while the runner runs on")
    func refusedSaveLeavesNothing() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
        let base = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
        let jobs = GatedJobs(base: base, gate: CompletionGate(), refusesStage: true)
        let roll = try Roll(paths: paths, catalog: ComposedCatalog(base, jobs: jobs), prober: MediaRecordingProber())
        for seed in 1...2 {
            let clip = try TestMedia.seededClip(folder.url("\(seed).mp4").path, seed: seed, width: 64, height: 48, frames: 10)
            try await roll.add([clip])
        }
        let id = try await base.enqueue(.stack(StackJobRequest(front: .recording(1), back: .recording(2))), maxAttempts: 1).id
        let log = Locked<[String]>([])
        let runner = JobRunner(roll: roll, uploads: UploadStore(roll: roll, maxSize: 1 << 20, expiry: 3600), slots: 1, lease: 600,
                               pollInterval: 0.05, log: { line in log.withLock { $0.append(line) } })
        let service = Task { try? await runner.run() }
        defer { service.cancel() }
        let lost = try await waitUntil(timeout: 120, every: 0.02) { log.withLock { $0.contains { $0.contains("job \(id): lease lost") } } }
        #expect(lost, "\(log.withLock { $0 })")
        let scratch = await runner.scratch
        let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
        #expect(left.isEmpty, "left in \(scratch.lastPathComponent): \(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: paths.recordings.path).filter { $0.hasSuffix(".mp4") }.count == 2)
        service.cancel()
        await service.value
    }
}
