import FeedCore
import Foundation
import Testing

/// Faults injected into a real `feed stack` run: the disk filling up and the output folder
/// vanishing. Each must end with a documented status, one line on stderr, no output and no
/// temporary file.
@Suite("feed stack under faults")
struct StackFaultTests {
    @Test("a file-size limit (the disk filling up) exits 74 with one line, no output and no temporary file")
    func diskFull() throws {
        let home = try RollHome()
        let front = try Self.busyClip(home, "front.mp4", seed: 1)
        let back = try Self.busyClip(home, "back.mp4", seed: 2)
        let out = home.folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let target = out.appendingPathComponent("out.mp4").path

        // ulimit -f 16 caps every file the process writes at 16 KiB; the stack needs far more.
        let run = try Self.limited(["/bin/sh", "-c", #"ulimit -f 16; exec "$0" "$@""#, FeedProcess.executable.path,
                                    "stack", front, back, "-o", target, "--crf", "0"])

        #expect(run.status == 74, "status \(run.status): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("feed: "), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [], "no output, no temporary file")
    }

    @Test("the output folder removed mid-run exits 73 or 74 with one line and nothing recreated")
    func folderRemoved() throws {
        let home = try RollHome()
        let front = try Self.busyClip(home, "front.mp4", seed: 1)
        let back = try Self.busyClip(home, "back.mp4", seed: 2)
        let out = home.folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let target = out.appendingPathComponent("out.mp4").path
        let errURL = home.folder.url.appendingPathComponent("stderr")
        try Data().write(to: errURL)

        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = ["stack", front, back, "-o", target, "--preset", "veryslow"]
        process.environment = ProcessInfo.processInfo.environment.merging(home.environment) { $1 }
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        let entries = { (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] }
        while process.isRunning && !entries().contains(where: { $0.hasSuffix(".part") }) && Date() < deadline {
            usleep(10_000)
        }
        #expect(process.isRunning, "feed stack ended before the temporary file was seen")
        try FileManager.default.removeItem(at: out)
        process.waitUntilExit()
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
    static func limited(_ command: [String]) throws -> FeedRun {
        let scratch = try TemporaryFolder()
        let outURL = scratch.url.appendingPathComponent("stdout"), errURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return FeedRun(status: status, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// A 320x240 30 fps clip of `frames` frames (6 s by default) with moving noise, so that
    /// stacking it is slow and large.
    static func busyClip(_ home: RollHome, _ name: String, seed: Int, frames: Int = 180) throws -> String {
        let path = home.folder.url.appendingPathComponent(name).path
        let (width, height, fps) = (320, 240, 30.0)
        let writer = try VideoWriter(path: path, width: width, height: height, fps: fps, preset: "ultrafast")
        var frame = Frame(width: width, height: height, format: .rgb24)
        let stride = frame.strides[0], offset = frame.offsets[0]
        for index in 0..<frames {
            frame.time = Double(index) / fps
            frame.bytes.withUnsafeMutableBufferPointer { pixels in
                var state = UInt32(truncatingIfNeeded: seed &* 7919 &+ index &* 104_729)
                for y in 0..<height {
                    let row = offset + y * stride
                    for x in 0..<(width * 3) {
                        state = state &* 1_664_525 &+ 1_013_904_223
                        pixels[row + x] = UInt8(truncatingIfNeeded: (x &+ y &* 2 &+ index &* 5) ^ Int(state >> 26))
                    }
                }
            }
            try writer.append(frame)
        }
        try writer.finish()
        return path
    }
}
