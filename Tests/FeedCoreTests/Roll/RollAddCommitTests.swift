import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// `AddOptions.stage` and `.commit`: how a queued job adds its output under its lease.
@Suite("Roll.add with a job's stage and commit")
struct RollAddCommitTests {
    @Test("stage learns the name before the rename; a refused commit (lease lost) takes the file back out")
    func refusedCommit() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("a.mp4"), seed: 1)
        let staged = Locked<[String]>([])
        var options = AddOptions()
        options.stage = { name throws(RollError) in
            // Nothing is in recordings/ yet when the name is given.
            #expect(RollTestSupport.storedFiles(roll).isEmpty)
            staged.withLock { $0.append(name) }
        }
        options.commit = { _ throws(RollError) in throw RollError.leaseLost(jobID: 7) }
        await #expect(throws: RollError.leaseLost(jobID: 7)) { try await roll.add([source.path], options: options) }
        #expect(staged.withLock { $0.count } == 1)
        #expect(RollTestSupport.storedFiles(roll).isEmpty)
        #expect(try await roll.count() == 0)
    }

    @Test("a commit that may have landed (the catalog failed mid-way) keeps the file it names")
    func uncertainCommit() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("a.mp4"), seed: 2)
        let staged = Locked<String?>(nil)
        var options = AddOptions()
        options.stage = { name throws(RollError) in staged.withLock { $0 = name } }
        options.commit = { _ throws(RollError) in throw RollError.database(path: "postgres://feed@db/feed", reason: "connection reset") }
        await #expect(throws: RollError.self) { try await roll.add([source.path], options: options) }
        let name = try #require(staged.withLock { $0 })
        #expect(RollTestSupport.storedFiles(roll) == [name], "the job's row names it; the queue's clean-up decides")
        try roll.removeAbandonedOutput(named: name)
        #expect(RollTestSupport.storedFiles(roll).isEmpty)
        try roll.removeAbandonedOutput(named: name)
    }
}
