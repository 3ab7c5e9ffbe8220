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

    /// What happened to a recording's file behind the roll's back, with the problem it makes.
    enum Damage: String, CaseIterable, Sendable { case changed, missing, halfRemoved, danglingLink }

    @Test("a damaged recording with a cached HLS ladder, poster and fast-start copy: verify names the caches too, one fix leaves it clean",
          arguments: Damage.allCases)
    func damageWithCaches(damage: Damage) async throws {
        // Given a recording with a ladder and a poster cached, and a second one left intact.
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try await #require(try roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        let b = try await #require(try roll.add([RollTestSupport.clip(folder.url("b.mp4"), seed: 3).path]).first)
        var ladders: [String: URL] = [:], posters: [String: URL] = [:], copies: [String: URL] = [:]
        try FileManager.default.createDirectory(at: roll.paths.faststart, withIntermediateDirectories: true)
        for recording in [a, b] {
            copies[recording.fileName] = roll.paths.faststart.appendingPathComponent(RollPaths.storedName(recording.fileName))
            try Data("moov first".utf8).write(to: try #require(copies[recording.fileName]))
            let ladder = roll.paths.hls.appendingPathComponent(Roll.hlsName(recording), isDirectory: true)
            try FileManager.default.createDirectory(at: ladder, withIntermediateDirectories: true)
            try Data("#EXTM3U\n".utf8).write(to: ladder.appendingPathComponent("master.m3u8"))
            ladders[recording.fileName] = ladder
            posters[recording.fileName] = try roll.thumbnail(of: recording)
        }

        // When its file changes, goes, is left half removed or is a link whose target went.
        let file = roll.url(of: a)
        try FileManager.default.removeItem(at: file)
        let expected: RollProblem
        switch damage {
        case .changed:
            try FileManager.default.copyItem(at: RollTestSupport.clip(folder.url("other.mp4"), seed: 2, width: 32, height: 32), to: file)
            expected = .hashMismatch(id: a.id, fileName: a.fileName, expected: a.sha256,
                                     actual: SHA256.hex([UInt8](try Data(contentsOf: file))))
        case .missing:
            expected = .missingFile(id: a.id, fileName: a.fileName)
        case .halfRemoved:
            try RollTestSupport.clip(roll.paths.trash.appendingPathComponent("\(a.id)-\(a.fileName)"), seed: 1)
            expected = .interruptedRemoval(id: a.id, fileName: a.fileName)
        case .danglingLink:
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: folder.url("gone.mp4").path)
            expected = .missingFile(id: a.id, fileName: a.fileName)
        }

        // Then verify names the row and both of its caches, and nothing of the intact one.
        let report = try await roll.verify()
        let ladder = try #require(ladders[a.fileName]), poster = try #require(posters[a.fileName]), copy = try #require(copies[a.fileName])
        #expect(report.problems == [expected, .staleHLS(name: ladder.lastPathComponent), .stalePoster(name: poster.lastPathComponent),
                                    .staleFastStart(name: copy.lastPathComponent)])
        // One fix repairs all of it, and a second verify finds nothing.
        let repair = try await roll.fix()
        #expect(repair.failed.isEmpty && repair.repaired == report.problems)
        #expect(repair.after.isClean, "\(repair.after.problems)")
        await #expect(try roll.verify().isClean)
        #expect(!FileManager.default.fileExists(atPath: ladder.path) && !FileManager.default.fileExists(atPath: poster.path)
                && !FileManager.default.fileExists(atPath: copy.path))
        #expect(FileManager.default.fileExists(atPath: try #require(ladders[b.fileName]).path))
        #expect(FileManager.default.fileExists(atPath: try #require(posters[b.fileName]).path))
        #expect(FileManager.default.fileExists(atPath: try #require(copies[b.fileName]).path))
        #expect(RollTestSupport.storedFiles(roll).count == (damage == .changed ? 2 : 1))
    }

    @Test("posters of a removed recording and a poster write that never finished: verify names them, fix deletes them")
    func stalePosters() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try Data([0xFF, 0xD8]).write(to: roll.paths.thumbs.appendingPathComponent("7-500.jpg"))
        try Data([0xFF]).write(to: roll.paths.thumbs.appendingPathComponent(".7-500.jpg.0A1B.tmp"))
        #expect(try await roll.verify().problems == [.stalePoster(name: ".7-500.jpg.0A1B.tmp"), .stalePoster(name: "7-500.jpg")])
        #expect(try await roll.fix().after.isClean)
        #expect(RollTestSupport.contents(roll.paths.thumbs).isEmpty)
    }

    @Test("fast-start copies of a removed recording and a copy that never finished: verify names them, fix deletes them; feed clips' copies stay")
    func staleFastStartCopies() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let kept = try await #require(try roll.add([RollTestSupport.clip(folder.url("clip-1.mp4"), seed: 1).path]).first)
        let copies = roll.paths.faststart
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        let feedClip = "clip-0123456789abcdef-4096-1764000000000000000.mp4"
        // A recording named like a feed clip's copy is judged as a recording's: its copy is kept
        // while the recording is there, and stale once it is gone.
        for name in [kept.fileName, feedClip, "gone.mp4", ".gone.mp4.1a2b3c4d.part", "clip-2.mp4"] {
            try Data("moov first".utf8).write(to: copies.appendingPathComponent(name))
        }
        #expect(try await roll.verify().problems == [.staleFastStart(name: ".gone.mp4.1a2b3c4d.part"), .staleFastStart(name: "clip-2.mp4"),
                                                     .staleFastStart(name: "gone.mp4")])
        #expect(try await roll.fix().after.isClean)
        #expect(RollTestSupport.contents(copies) == [kept.fileName, feedClip].sorted())
        #expect(FastStartCopies.isFeedClipCopy(feedClip) && !FastStartCopies.isFeedClipCopy("clip-2.mp4")
                && !FastStartCopies.isFeedClipCopy("clip-0123456789ABCDEF-4096-1.mp4") && !FastStartCopies.isFeedClipCopy("clip-0123456789abcdef-x-1.mp4"))
    }
}
