import Crypto
import FeedTestSupport
import Foundation
import Testing
import FeedCore

/// kill -9 at every step of add and rm (FEED_ROLL_CRASH_AT makes the process SIGKILL itself
/// there), and at a random moment of a many-file add: verify must name what is left and
/// --fix must repair it.
@Suite("feed roll verify")
struct RollVerifyCommandTests {
    @Test("a clean roll: exit 0, no problem lines")
    func clean() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        let run = try await home.run(["roll", "verify"])
        #expect(run.status == 0 && run.stdout.isEmpty)
        #expect(run.stderr.contains("checked 1 recording: no problems"))
    }

    @Test("killed at each step of add and rm: verify names it (exit 1), --fix repairs (exit 0)", arguments: [
        ("add.staged", "leftover partial copy", 0),
        ("add.renamed", "orphan file", 1),
        ("rm.trashed", "removal of", 0),
        ("rm.deleted", "leftover removed file", 0),
    ])
    func crashPoints(point: String, named: String, rowsAfterFix: Int) async throws {
        let home = try RollHome()
        let clip = try home.clip("a.mp4", seed: 1)
        if point.hasPrefix("rm.") {
            #expect(try await home.run(["roll", "add", clip]).status == 0)
        }
        let id = try await home.rows().first.flatMap { $0["id"] as? Int }
        let crashing = try await home.spawn(point.hasPrefix("rm.") ? ["roll", "rm", String(id!)] : ["roll", "add", clip],
                                            environment: ["FEED_ROLL_CRASH_AT": point])
        await crashing.exitStatus()
        #expect(crashing.process.terminationReason == .uncaughtSignal && crashing.process.terminationStatus == SIGKILL)
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains(named), "\(verify.stdout)")
        let fix = try await home.run(["roll", "verify", "--fix"])
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(fix.stdout.contains("fixed: "))
        #expect(try await home.run(["roll", "verify"]).status == 0)
        #expect(try await home.rows().count == rowsAfterFix)
        #expect(home.storedFiles().count == rowsAfterFix)
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
    }

    @Test("kill -9 in the middle of a many-file add: verify explains, --fix repairs, nothing is lost")
    func killDuringAdd() async throws {
        let home = try RollHome()
        // Larger clips so most of the time is spent copying and hashing.
        let clips = try (0..<24).map { try home.clip("k\($0).mp4", seed: $0, width: 320, height: 240, frames: 40) }
        // Wait until a few files landed, then kill it mid-flight.
        let adder = try await promptly {
            let adder = try await home.spawn(["roll", "add"] + clips)
            try await waitUntil(timeout: 60, every: 0.002) { home.storedFiles().count >= 3 || adder.hasExited }
            adder.signal(SIGKILL)
            return adder
        }
        await adder.exitStatus()
        let verify = try await home.run(["roll", "verify"])
        #expect([0, 1].contains(verify.status))
        #expect(verify.status == 0 || verify.stdout.contains("problem: "))
        let fix = try await home.run(["roll", "verify", "--fix"])
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(try await home.run(["roll", "verify"]).status == 0)
        // Every stored file has its row, every row came from one of the clips, no leftovers.
        let rows = try await home.rows()
        #expect(rows.count == home.storedFiles().count)
        #expect(rows.count >= 3 || adder.process.terminationReason == .exit)
        let hashes = rows.compactMap { $0["sha256"] as? String }
        let clipHashes = try Set(clips.map { SHA256.hex([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))) })
        #expect(Set(hashes).count == rows.count && Set(hashes).isSubset(of: clipHashes))
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
    }
}

extension RollVerifyCommandTests {
    @Test("killed at each step of add and rm with HLS ladders, posters and a fast-start copy cached: one --fix repairs all (exit 0), a second verify finds nothing",
          arguments: ["add.staged", "add.renamed", "rm.trashed", "rm.deleted"])
    func crashPointsWithCaches(point: String) async throws {
        // Given a recording with a ladder and two posters cached.
        let home = try RollHome()
        let clip = try await HLSCommandTests.clip(home.folder, "a.mp4", width: 144, height: 256, seconds: 2)
        try #require(try await home.run(["roll", "add", clip]).status == 0)
        let id = String(try #require(try await home.rows().first?["id"] as? Int))
        try #require(try await home.run(["roll", "hls", id]).status == 0)
        try #require(try await home.run(["roll", "thumb", id]).status == 0)
        try #require(try await home.run(["roll", "thumb", id, "--at", "0.5"]).status == 0)
        // The copy `feed serve` makes of a moov-at-end recording, where it keeps it.
        let stored = try #require(home.storedFiles().first)
        try FileManager.default.createDirectory(at: home.recordings.appendingPathComponent(".faststart"), withIntermediateDirectories: true)
        try #require(try await home.run(["faststart", home.recordings.appendingPathComponent(stored).path,
                                         "-o", home.recordings.appendingPathComponent(".faststart/\(stored)").path]).status == 0)
        let ladders = home.hidden(".hls"), posters = home.hidden(".thumbs"), copies = home.hidden(".faststart")
        try #require(ladders.count == 1 && posters.count == 2 && copies == [stored])

        // When a removal of it, or an add of another clip, is killed at the step.
        let other = try await HLSCommandTests.clip(home.folder, "b.mp4", width: 144, height: 256, seconds: 1)
        let crashing = try await home.spawn(point.hasPrefix("rm.") ? ["roll", "rm", id] : ["roll", "add", other],
                                      environment: ["FEED_ROLL_CRASH_AT": point])
        await crashing.exitStatus()
        try #require(crashing.process.terminationReason == .uncaughtSignal && crashing.process.terminationStatus == SIGKILL)

        // Then verify names everything left, the caches of a half-removed recording included.
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        if point.hasPrefix("rm.") {
            for name in ladders { #expect(verify.stdout.contains("problem: stale HLS ladder .hls/\(name)\n"), "\(verify.stdout)") }
            for name in posters { #expect(verify.stdout.contains("problem: stale poster .thumbs/\(name)\n"), "\(verify.stdout)") }
            #expect(verify.stdout.contains("problem: stale fast-start copy .faststart/\(stored)\n"), "\(verify.stdout)")
        }
        try await Self.expectOnePassFix(home)
        let rows = try await home.rows()
        #expect(rows.count == home.storedFiles().count && rows.count == (point.hasPrefix("rm.") ? 0 : point == "add.renamed" ? 2 : 1))
        // The caches of a recording that stays are kept.
        #expect(home.hidden(".hls") == (point.hasPrefix("rm.") ? [] : ladders))
        #expect(home.hidden(".thumbs") == (point.hasPrefix("rm.") ? [] : posters))
        #expect(home.hidden(".faststart") == (point.hasPrefix("rm.") ? [] : copies))
    }

    /// One `roll verify --fix` repairs everything it finds (exit 0, nothing but `fixed:` lines),
    /// and a plain `roll verify` after it finds nothing.
    static func expectOnePassFix(_ home: RollHome, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let fix = try await home.run(["roll", "verify", "--fix"])
        #expect(fix.status == 0 && fix.lines.allSatisfy { $0.hasPrefix("fixed: ") }, "\(fix.stdout)\(fix.stderr)",
                sourceLocation: sourceLocation)
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)", sourceLocation: sourceLocation)
    }
}
