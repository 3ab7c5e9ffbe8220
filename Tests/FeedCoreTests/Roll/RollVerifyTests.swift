import Crypto
import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// Each crash point of add and rm, recreated on disk, must be named by verify and repaired by fix.
@Suite("Roll.verify and Roll.fix")
struct RollVerifyTests {
    @Test("a clean roll verifies clean")
    func clean() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path])
        let report = try await roll.verify()
        #expect(report.checked == 1 && report.isClean)
    }

    @Test("a file deleted behind the roll's back: missing; fix drops the row")
    func missing() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try await #require(try roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        try FileManager.default.removeItem(at: roll.url(of: a))
        await #expect(try roll.verify().problems == [.missingFile(id: a.id, fileName: a.fileName)])
        let repair = try await roll.fix()
        #expect(repair.repaired == [.missingFile(id: a.id, fileName: a.fileName)])
        #expect(repair.after.isClean)
        await #expect(try roll.count() == 0)
    }

    @Test("changed bytes: hash mismatch; fix records the file as it is now")
    func mismatch() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try await #require(try roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        let other = try RollTestSupport.clip(folder.url("b.mp4"), seed: 2, width: 32, height: 32)
        try FileManager.default.removeItem(at: roll.url(of: a))
        try FileManager.default.copyItem(at: other, to: roll.url(of: a))
        let problems = try await roll.verify().problems
        guard case let .hashMismatch(id, _, expected, actual)? = problems.first, problems.count == 1 else {
            Issue.record("expected one hash mismatch, got \(problems)")
            return
        }
        let otherHash = SHA256.hex([UInt8](try Data(contentsOf: other)))
        #expect(id == a.id && expected == a.sha256 && actual == otherHash)
        await #expect(try roll.fix().after.isClean)
        let fixed = try await roll.recording(id: a.id)
        #expect(fixed.sha256 == actual && fixed.media.width == 32 && fixed.media.height == 32)
    }

    @Test("crash after the rename, before the insert: orphan; fix adopts it with its probe")
    func orphan() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let clip = try RollTestSupport.clip(folder.url("o.mp4"), seed: 7)
        try FileManager.default.copyItem(at: clip, to: roll.paths.file(named: "20260101-000000-orphan.mp4"))
        await #expect(try roll.verify().problems == [.orphan(fileName: "20260101-000000-orphan.mp4")])
        let repair = try await roll.fix()
        #expect(repair.after.isClean)
        let adopted = try await #require(try roll.recordings(limit: nil).first)
        #expect(adopted.fileName == "20260101-000000-orphan.mp4")
        #expect(adopted.sha256 == SHA256.hex([UInt8](try Data(contentsOf: clip))))
        #expect(adopted.media.width == 64 && adopted.media.height == 48)
    }

    @Test("crash during the copy: leftover in .incoming; fix deletes it")
    func incoming() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try Data([1, 2, 3]).write(to: roll.paths.incoming.appendingPathComponent("x.part"))
        #expect(try await roll.verify().problems == [.incomingLeftover(name: "x.part")])
        #expect(try await roll.fix().after.isClean)
        #expect(RollTestSupport.contents(roll.paths.incoming).isEmpty)
    }

    @Test("crash after the file went to the trash, before the row went: fix finishes the removal")
    func interruptedRemoval() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        try FileManager.default.moveItem(at: roll.url(of: a), to: roll.paths.trash.appendingPathComponent("\(a.id)-\(a.fileName)"))
        #expect(try await roll.verify().problems == [.interruptedRemoval(id: a.id, fileName: a.fileName)])
        #expect(try await roll.fix().after.isClean)
        #expect(try await roll.count() == 0)
        #expect(RollTestSupport.contents(roll.paths.trash).isEmpty)
    }

    @Test("crash after the row went, before the trash was emptied: fix deletes the leftover")
    func trashLeftover() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try Data([9]).write(to: roll.paths.trash.appendingPathComponent("5-gone.mp4"))
        #expect(try await roll.verify().problems == [.trashLeftover(name: "5-gone.mp4")])
        #expect(try await roll.fix().after.isClean)
    }

    @Test("an orphan that is not a video cannot be adopted: fix reports it and it stays")
    func unadoptable() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try Data("text".utf8).write(to: roll.paths.file(named: "notes.txt"))
        let repair = try await roll.fix()
        #expect(repair.failed.map(\.problem) == [.orphan(fileName: "notes.txt")])
        #expect(repair.after.problems == [.orphan(fileName: "notes.txt")])
        #expect(FileManager.default.fileExists(atPath: roll.paths.file(named: "notes.txt").path))
    }
}
