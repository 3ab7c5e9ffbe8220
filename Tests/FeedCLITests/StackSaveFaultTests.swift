import FeedTestSupport
import Foundation
import Testing

/// SIGINT and SIGTERM while `feed stack --save` goes from the written MP4 to its roll row.
/// Whatever the moment, the end is one of two whole states: no output and no row (exit 130),
/// or the output and its complete row (the save, once started, finishes: exit 0). Never an
/// output without its row, a row without its file, or a temporary file; the roll verifies.
@Suite("feed stack --save under signals")
struct StackSaveFaultTests {
    /// FEED_ROLL_CRASH_AT steps on the way from the finished MP4 to the row, and the state each
    /// must end in: `stack.written` (output renamed into place, save not started) ends with
    /// nothing; the steps inside the save end with everything.
    static let steps: [(step: String, saved: Bool)] = [
        ("stack.written", false), ("add.staged", true), ("add.renamed", true),
    ]

    @Test("a signal at each step ends whole", arguments: [SIGINT, SIGTERM], steps.map(\.step))
    func signalAtStep(signal number: Int32, step: String) async throws {
        let home = try RollHome()
        let front = try home.clip("front.mp4", seed: 1)
        let back = try home.clip("back.mp4", seed: 2)
        let out = home.folder.url.appendingPathComponent("out.mp4").path
        let name = number == SIGINT ? "INT" : "TERM"

        let run = try await home.run(["stack", front, back, "-o", out, "--save"],
                                     environment: ["FEED_ROLL_CRASH_AT": step, "FEED_ROLL_CRASH_SIGNAL": name])

        let saved = try #require(Self.steps.first { $0.step == step }).saved
        if saved {
            #expect(run.status == 0, "status \(run.status): \(run.stderr)")
            #expect(run.stderr == "saved to the roll as #1\n")
        } else {
            #expect(run.status == 130, "status \(run.status): \(run.stderr)")
            #expect(run.stderr == "feed: interrupted; no output written\n")
        }
        try await Self.expectWhole(home, output: out, saved: saved)
    }

    @Test("a real signal sent as the output appears ends whole", arguments: [SIGINT, SIGTERM])
    func signalAsTheOutputAppears(signal number: Int32) async throws {
        let home = try RollHome()
        let front = try StackFaultTests.busyClip(home, "front.mp4", seed: 1, frames: 60)
        let back = try StackFaultTests.busyClip(home, "back.mp4", seed: 2, frames: 60)
        let out = home.folder.url.appendingPathComponent("out.mp4").path
        _ = try await home.run(["roll", "verify"])   // the roll exists before the race starts

        let child = try await promptly {
            let child = try await home.spawn(["stack", front, back, "-o", out, "--save", "--preset", "ultrafast"])
            try await waitUntil(timeout: 120, every: 0.0001) { child.hasExited || FileManager.default.fileExists(atPath: out) }
            child.signal(number)
            return child
        }
        await child.exitStatus()

        let process = child.process
        #expect(process.terminationReason == .exit && [0, 130].contains(process.terminationStatus),
                "reason \(process.terminationReason.rawValue) status \(process.terminationStatus)")
        try await Self.expectWhole(home, output: out, saved: process.terminationStatus == 0)
    }

    /// Saved: the output exists and is the roll's one recording, byte for byte, with both
    /// sources. Not saved: no output and an empty roll. Either way no temporary file anywhere
    /// and `roll verify` is clean.
    static func expectWhole(_ home: RollHome, output: String, saved: Bool) async throws {
        let rows = try await home.rows()
        if saved {
            #expect(FileManager.default.fileExists(atPath: output), "the output is kept")
            #expect(rows.count == 1 && home.storedFiles().count == 1, "\(rows)")
            let stored = home.recordings.appendingPathComponent(home.storedFiles().first ?? "-")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: stored), "the row holds the output")
            #expect((rows.first?["sources"] as? [String])?.count == 2, "\(rows)")
        } else {
            #expect(!FileManager.default.fileExists(atPath: output), "no output without its row")
            #expect(rows.isEmpty && home.storedFiles().isEmpty, "\(rows)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.folder.url.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
    }
}

extension StackSaveFaultTests {
    @Test("kill -9 at each step of the save: one roll verify --fix repairs what is left (exit 0), a second verify finds nothing",
          arguments: steps.map { $0.step })
    func killedAtStep(step: String) async throws {
        let home = try RollHome()
        let front = try home.clip("front.mp4", seed: 1)
        let back = try home.clip("back.mp4", seed: 2)
        let out = home.folder.url.appendingPathComponent("out.mp4").path

        let process = try await home.spawn(["stack", front, back, "-o", out, "--save"], environment: ["FEED_ROLL_CRASH_AT": step])
        await process.exitStatus()

        #expect(process.process.terminationReason == .uncaughtSignal && process.process.terminationStatus == SIGKILL)
        try await RollVerifyCommandTests.expectOnePassFix(home)
        #expect(try await home.rows().count == home.storedFiles().count)
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
    }
}
