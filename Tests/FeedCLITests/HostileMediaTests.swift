import FeedCore
import Foundation
import FeedTestSupport
import Testing

/// Hostile media through the real binary: `probe`, `stack`, `stack --save` and `roll add` of
/// a picture declared over the size limit or of sound without pictures exit 65 with one line,
/// fast and in little memory, and leave nothing behind (no output, no temporary file, no roll
/// row or file). A 1x1 video goes through all of them and `roll thumb`.
@Suite("Hostile media through feed")
struct HostileMediaTests {
    /// Peak memory allowed for refusing a file: a debug `feed` starts near 55 MB; one
    /// 32768x32768 yuv420p picture would be 1.5 GB.
    static let memoryLimit = 256 << 20

    enum Kind: String, CaseIterable, Sendable {
        case avi32768, sps32768, aviLongSide, voiceAVI, voiceM4A
        /// What every refusal of it says (roll add words it as "not a video file (…)").
        var refusal: String { rawValue.hasPrefix("voice") ? "no video stream" : "16384x16384" }
    }

    /// The hostile file of `kind` in the home's folder.
    static func make(_ kind: Kind, in home: RollHome) throws -> String {
        let folder = home.folder.url.path
        switch kind {
        case .avi32768:
            return try HostileMedia.rawVideoAVI(folder + "/huge.avi", width: 32768, height: 32768, frames: 3, frameBytes: 64)
        case .aviLongSide:
            return try HostileMedia.rawVideoAVI(folder + "/long.avi", width: 16400, height: 16, frames: 3, frameBytes: 64)
        case .sps32768:
            let clip = try home.clip("source.mp4", seed: 9)
            return try HostileMedia.h264DeclaringSize(clip, to: folder + "/huge.h264", width: 32768, height: 32768)
        case .voiceAVI:
            return try HostileMedia.audioOnlyAVI(folder + "/voice.avi")
        case .voiceM4A:
            let writer = try VideoWriter(path: folder + "/talk.mp4", width: 64, height: 48, fps: 10,
                                         audio: AudioFormat(sampleRate: 44100, channels: 1))
            for index in 0..<10 { try writer.append(Frame(width: 64, height: 48, format: .rgb24, time: Double(index) / 10)) }
            try writer.appendAudio((0..<44100).map { Float(sin(Double($0) / 10)) * 0.3 })
            try writer.finish()
            return try HostileMedia.mp4WithoutVideo(folder + "/talk.mp4", to: folder + "/voice.m4a")
        }
    }

    @Test("probe, stack, stack --save and roll add refuse it: 65, one line, small memory, nothing left", arguments: Kind.allCases)
    func refusedEverywhere(kind: Kind) async throws {
        let home = try RollHome()
        let path = try Self.make(kind, in: home)
        let clip = try home.clip("clip.mp4", seed: 1)
        let out = home.folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let target = out.appendingPathComponent("stacked.mp4").path

        let runs = [
            ["probe", path], ["probe", "--json", path], ["stack", path, clip, "-o", target],
            ["stack", clip, path, "-o", target, "--save"], ["roll", "add", path],
        ]
        for arguments in runs {
            let (run, kilobytes) = try await Self.measured(home, arguments)
            let seconds = run.seconds

            #expect(run.status == 65, "\(arguments): status \(run.status): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 1 && lines.first?.hasPrefix("feed: ") == true, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("feed: \(path): ") && run.stderr.contains(kind.refusal), "\(arguments): \(run.stderr)")
            #expect(arguments[1] == "--json" ? run.stdout == "[]\n" || run.stdout.isEmpty : run.stdout.isEmpty, "\(run.stdout)")
            #expect(kilobytes * 1024 < Self.memoryLimit, "\(arguments): peak RSS \(kilobytes / 1024) MB")
            #expect(seconds < 10, "\(arguments): \(seconds) s")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [], "no output, no temporary file")
        #expect(try await home.rows().isEmpty)
        #expect(home.storedFiles().isEmpty && home.hidden(".incoming").isEmpty)
    }

    @Test("a declared 16384x16000 (over 100 Mpx, within FFmpeg's own limit) is refused without allocating its picture")
    func areaRefusedBeforeAllocation() async throws {
        let home = try RollHome()
        let clip = try home.clip("source.mp4", seed: 9)
        let path = try HostileMedia.h264DeclaringSize(clip, to: home.folder.url.path + "/area.h264", width: 16384, height: 16000)

        let (run, kilobytes) = try await Self.measured(home, ["probe", path])

        #expect(run.status == 65)
        #expect(run.stderr == "feed: \(path): refused: picture 16384x16000 is over the 16384x16384 / 100000000 pixel limit\n")
        // FFmpeg decodes the first pictures to find the stream parameters before the shim looks
        // at the size; the shim hands those decoders the pixel limit (max_pixels) so nothing
        // that large is allocated (without it: ~800 MB).
        #expect(kilobytes * 1024 < Self.memoryLimit, "peak RSS \(kilobytes / 1024) MB")
    }

    @Test("a 1x1 video: probe says 1x1, stack writes an even-sized output, roll add, thumb and sheet work")
    func onePixel() async throws {
        let home = try RollHome()
        let dot = try HostileMedia.rawVideoAVI(home.folder.url.path + "/dot.avi", width: 1, height: 1, frames: 10)
        let clip = try home.clip("clip.mp4", seed: 2)
        let out = home.folder.url.appendingPathComponent("dot-stacked.mp4").path

        let probe = try await home.run(["probe", "--json", dot])
        let stack = try await home.run(["stack", dot, clip, "-o", out, "--json"])
        let stacked = try await home.run(["probe", "--json", out])
        let add = try await home.run(["roll", "add", dot, "--json"])
        let id = try #require(try add.objects().first?["id"] as? Int)
        let thumb = try await home.run(["roll", "thumb", String(id)])
        let verify = try await home.run(["roll", "verify"])
        let sheetPath = home.folder.url.appendingPathComponent("sheet.png").path
        let sheet = try await home.run(["roll", "sheet", "-o", sheetPath])

        let info = try #require(try probe.objects().first)
        #expect(info["coded_width"] as? Int == 1 && info["coded_height"] as? Int == 1)
        #expect(info["display_width"] as? Int == 1 && info["display_height"] as? Int == 1)
        #expect(stack.status == 0, "\(stack.stderr)")
        let summary = try #require(try stack.json() as? [String: Any])
        let (width, height) = (try #require(summary["width"] as? Int), try #require(summary["height"] as? Int))
        #expect(width % 2 == 0 && height % 2 == 0 && width >= 2, "\(width)x\(height)")
        let output = try #require(try stacked.objects().first)
        #expect(output["display_width"] as? Int == width && output["display_height"] as? Int == height)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: String(thumb.stdout.dropLast()))))
        #expect(ImageHeader.jpegSize(jpeg)?.width == 1 && ImageHeader.jpegSize(jpeg)?.height == 1)
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect(ImageHeader.pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: sheetPath)))) != nil)
    }

    @Test("an MP4 followed by a box whose 64-bit size is near Int64.max: FFmpeg plays it, so the roll takes it; probe, faststart and feed serve's /roll and file still answer, and the server stays up")
    func hugeTrailingBox() async throws {
        let home = try RollHome()
        let clip = try home.clip("clip.mp4", seed: 4)
        // A `free` box of 2^63 - 1 bytes after the last real box (64-bit size: 1, then the size).
        let huge: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0x7F] + [UInt8](repeating: 0xFF, count: 7) + [UInt8](repeating: 0, count: 16)
        let path = home.folder.url.path + "/tail.mp4"
        try (try Data(contentsOf: URL(fileURLWithPath: clip)) + Data(huge)).write(to: URL(fileURLWithPath: path))

        let probe = try await home.run(["probe", "--json", path])
        #expect(probe.status == 0, "\(probe.stderr)")
        let fast = try await home.run(["faststart", path, "-o", home.folder.url.path + "/tail-fast.mp4"])
        #expect(fast.status == 0, "\(fast.stderr)")
        let add = try await home.run(["roll", "add", path, "--json"])
        #expect(add.status == 0, "\(add.stderr)")
        let id = try #require(try add.objects().first?["id"] as? Int)

        let server = try await ServeProcess(["--quiet"], home: home)
        let roll = try await server.curl("/roll")
        #expect(roll.status == 200, "\(roll.text)")
        let file = try await server.curl("/media/roll/\(id)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).count
        #expect(file.status == 200 && file.body.count == bytes)
        #expect(await server.stop() == 0, "the server did not stop cleanly: \(server.stderr.suffix(600))")
    }

    /// Runs `feed arguments…` in the home under `/usr/bin/time`; its result and peak RSS in KiB.
    static func measured(_ home: RollHome, _ arguments: [String]) async throws -> (run: FeedRun, kilobytes: Int) {
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time measures the peak memory")
        let rss = home.folder.url.appendingPathComponent("rss").path
        let run = try await Tool.run(time, ["-f", "%M", "-o", rss, "/usr/bin/env", "FEED_HOME=\(home.home.path)",
                                            FeedProcess.executable.path] + arguments)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: rss)), as: UTF8.self)
        let kilobytes = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "time wrote: \(text)")
        return (run, kilobytes)
    }
}
