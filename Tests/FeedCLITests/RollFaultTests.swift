import FeedTestSupport
import Foundation
import Testing

/// SIGINT and SIGTERM in the middle of `feed roll add` of many clips and `feed roll rm` of many
/// ids: the command stops between files with status 130 and one line on stderr, and the roll
/// still verifies, every row with its file and no file without a row.
@Suite("feed roll under signals")
struct RollFaultTests {
    @Test("SIGINT or SIGTERM during a many-file add: exit 130, one line, the roll verifies", arguments: [SIGINT, SIGTERM])
    func interruptedAdd(signal number: Int32) async throws {
        let home = try RollHome()
        // Enough files that the signal lands while some are still to come, even on a loaded machine.
        let clips = try (0..<48).map { try home.clip("c\($0).mp4", seed: $0, width: 160, height: 120, frames: 20) }
        let errURL = home.folder.url.appendingPathComponent("stderr")
        let adder = try await promptly {
            let adder = try await Self.spawn(home, ["roll", "add"] + clips, stderr: errURL)
            try await waitUntil(timeout: 60, every: 0.001) { home.storedFiles().count >= 2 || adder.hasExited }
            #expect(!adder.hasExited, "roll add ended before it could be interrupted")
            adder.signal(number)
            return adder
        }
        await adder.exitStatus()

        try Self.expectInterrupted(adder, stderr: errURL)
        try await Self.expectConsistent(home)
        let count = try await home.rows().count
        #expect(count >= 2 && count < 48, "stopped between files: \(count) of 48 added")
        #expect(clips.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the originals are untouched")
    }

    @Test("SIGINT or SIGTERM during a many-id rm: exit 130, one line, the roll verifies", arguments: [SIGINT, SIGTERM])
    func interruptedRemove(signal number: Int32) async throws {
        let home = try RollHome()
        let clips = try (0..<40).map { try home.clip("r\($0).mp4", seed: $0, width: 160, height: 120, frames: 10) }
        let add = try await home.run(["roll", "add"] + clips)
        #expect(add.status == 0, "\(add.stderr)")
        let ids = try await home.rows().compactMap { $0["id"] as? Int }.map(String.init)
        #expect(ids.count == 40)
        let errURL = home.folder.url.appendingPathComponent("stderr")
        let (remover, caught) = try await promptly {
            let remover = try await Self.spawn(home, ["roll", "rm"] + ids, stderr: errURL)
            try await waitUntil(timeout: 60, every: 0.0002) { home.storedFiles().count <= 38 || remover.hasExited }
            let caught = !remover.hasExited
            remover.signal(number)
            return (remover, caught)
        }
        await remover.exitStatus()

        if caught {
            try Self.expectInterrupted(remover, stderr: errURL)
            #expect(try await home.rows().count > 0, "stopped before the last id")
        } else {
            // It was faster than the poll: it must have finished cleanly.
            #expect(remover.process.terminationReason == .exit && remover.process.terminationStatus == 0)
        }
        try await Self.expectConsistent(home)
    }

    @Test("a file-size limit (the disk filling up) during add exits 74 with one line; what landed stays, .incoming is empty")
    func diskFullAdd() async throws {
        let home = try RollHome()
        let small = try home.clip("small.mp4", seed: 1)
        let large = try StackFaultTests.busyClip(home, "large.mp4", seed: 2, frames: 30)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int)
        #expect(size > 200 * 1024, "the large clip must exceed the limit: \(size) bytes")
        // The roll exists before the disk fills (creating its schema writes more than the limit).
        #expect(try await home.rows().isEmpty)

        // ulimit -f 200 caps every file at 100 KiB (dash counts 512-byte blocks), far below the large clip.
        let run = try await StackFaultTests.limited(["/usr/bin/env", "FEED_HOME=\(home.home.path)", "/bin/sh", "-c",
                                                     #"ulimit -f 200; exec "$0" "$@""#, FeedProcess.executable.path,
                                                     "roll", "add", small, large])

        #expect(run.status == 74, "status \(run.status): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("feed: ") == true, "\(run.stderr)")
        try await Self.expectConsistent(home)
        #expect(try await home.rows().count == 1, "the small clip landed before the large one failed")
    }

    /// Exit 130 (not death by the signal) and exactly one `feed: ` line on stderr.
    private static func expectInterrupted(_ child: ChildProcess, stderr errURL: URL) throws {
        let process = child.process
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130,
                "reason \(process.terminationReason.rawValue) status \(process.terminationStatus): \(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("feed: ") == true, "\(stderr)")
    }

    /// verify is clean without --fix, rows and files match one to one, nothing is left in
    /// .incoming or .trash.
    private static func expectConsistent(_ home: RollHome) async throws {
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
        let rows = try await home.rows()
        let names = rows.compactMap { $0["file_name"] as? String }.sorted()
        #expect(names.count == rows.count, "every row names its file")
        #expect(names == home.storedFiles(), "rows == files")
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
    }

    /// Starts `feed` (under a permit of ``ProcessLimiter``) with stderr captured in `stderr` and
    /// stdout discarded.
    private static func spawn(_ home: RollHome, _ arguments: [String], stderr errURL: URL) async throws -> ChildProcess {
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(home.environment) { $1 }
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        return try await ChildProcess.start(process)
    }
}
