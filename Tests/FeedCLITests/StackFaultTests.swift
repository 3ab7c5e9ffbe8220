import FeedCore
import Foundation
import FeedTestSupport
import Testing

/// Faults injected into a real `feed stack` run: the disk filling up and the output folder
/// vanishing. Each must end with a documented status, one line on stderr, no output and no
/// temporary file.
@Suite("feed stack under faults")
struct StackFaultTests {
    @Test("a file-size limit (the disk filling up) exits 74 with one line, no output and no temporary file")
    func diskFull() async throws {
        let (home, front, back, out) = try Self.inputs()
        let target = out.appendingPathComponent("out.mp4").path

        // ulimit -f 16 caps every file the process writes at 16 KiB; the stack needs far more.
        let run = try await Self.limited(["/bin/sh", "-c", #"ulimit -f 16; exec "$0" "$@""#, FeedProcess.executable.path,
                                          "stack", front, back, "-o", target, "--crf", "0"])

        #expect(run.status == 74, "status \(run.status): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("feed: "), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [], "no output, no temporary file")
    }

    @Test("the output folder removed mid-run exits 73 or 74 with one line and nothing recreated")
    func folderRemoved() async throws {
        let (home, front, back, out) = try Self.inputs(frames: 60)
        let target = out.appendingPathComponent("out.mp4").path
        let errURL = home.folder.url.appendingPathComponent("stderr")
        try Data().write(to: errURL)

        let process = Process()
        process.executableURL = FeedProcess.executable
        // x264's veryslow preset: seconds of encoding, so a poll a loaded machine makes late
        // still finds the stack running (at the default preset it was over in a fraction of one).
        process.arguments = ["stack", front, back, "-o", target, "--preset", "veryslow"]
        process.environment = ProcessInfo.processInfo.environment.merging(home.environment) { $1 }
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let entries = { (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] }
        let child = try await promptly {
            let child = try await ChildProcess.start(process)
            try await waitUntil(timeout: 60, every: 0.01) { child.hasExited || entries().contains(where: { $0.hasSuffix(".part") }) }
            // Stopped while its folder goes, so even a short stack is caught mid-run; it stops
            // within the poll's 10 ms of writing, before it can rename its output into place.
            child.signal(SIGSTOP)
            #expect(!child.hasExited, "feed stack ended before the temporary file was seen")
            try FileManager.default.removeItem(at: out)
            child.signal(SIGCONT)
            return child
        }
        await child.exitStatus()
        try err.close()

        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        #expect(process.terminationReason == .exit && [73, 74].contains(process.terminationStatus),
                "status \(process.terminationStatus): \(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("feed: "), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "the folder is not recreated")
    }

    /// Runs a command line (not `feed` directly) with captured stdout and stderr; death by a
    /// signal reads as 128 + the signal.
    static func limited(_ command: [String]) async throws -> FeedRun {
        let scratch = try ScratchFolder()
        let outURL = scratch.url("stdout"), errURL = scratch.url("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try await ChildProcess.run(process)
        try out.close()
        try err.close()
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return FeedRun(status: status, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// A roll home with two noisy clips of `frames` frames (slow to stack) and an empty output folder `out`.
    static func inputs(frames: Int = 180) throws -> (home: RollHome, front: String, back: String, out: URL) {
        let home = try RollHome()
        let front = try busyClip(home, "front.mp4", seed: 1, frames: frames)
        let back = try busyClip(home, "back.mp4", seed: 2, frames: frames)
        let out = home.folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        return (home, front, back, out)
    }

    /// `TestMedia.noisyClip` named `name` in the home's folder.
    static func busyClip(_ home: RollHome, _ name: String, seed: Int, frames: Int = 180) throws -> String {
        try TestMedia.noisyClip(home.folder.url.appendingPathComponent(name).path, seed: seed, frames: frames)
    }
}
