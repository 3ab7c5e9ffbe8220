import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// What a runner sweeps of other workers' `.jobs/` folders.
@Suite("Housekeeper")
struct HousekeeperTests {
    @Test("a dead worker of another host: its folder and the half-written output in it go once untouched for an hour; a busy worker's and a fresh one's stay")
    func goneWorkersFolders() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.jobs, withIntermediateDirectories: true)
        let catalog = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
        let roll = try Roll(paths: paths, catalog: catalog, prober: MediaRecordingProber())
        _ = try await catalog.enqueue(.noop, maxAttempts: 1)
        _ = try #require(try await catalog.claim(worker: "busy-host:7", lease: 600))
        let now = Date()
        var made: [String: URL] = [:]
        for (worker, age) in [("dead-host:1", 7200.0), ("busy-host:7", 7200.0), ("fresh-host:3", 60.0)] {
            let scratch = paths.jobs.appendingPathComponent(worker, isDirectory: true)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let output = scratch.appendingPathComponent("12-abcdef01.mp4")
            try Data(repeating: 7, count: 1000).write(to: output)
            for path in [output.path, scratch.path] {
                try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
            }
            made[worker] = scratch
        }
        let lines = Locked<[String]>([])
        let keeper = Housekeeper(roll: roll, worker: WorkerIdentity("this-host:9")!, log: { line in lines.withLock { $0.append(line) } })
        await keeper.removeFoldersOfGoneWorkers(now: now)
        let left = try FileManager.default.contentsOfDirectory(atPath: paths.jobs.path).sorted()
        #expect(left == ["busy-host:7", "fresh-host:3"])
        #expect(lines.withLock { $0 } == ["removed dead-host:1's outputs folder and the 1 file(s) its process left (no running job, untouched for an hour)"])
    }
}
