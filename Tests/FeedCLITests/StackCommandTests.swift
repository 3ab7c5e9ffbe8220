import FeedCore
import Foundation
import FeedTestSupport
import Testing

@Suite("feed stack")
struct StackCommandTests {
    /// Two 64x48 10 fps clips of 1 s (10 frames) in a fresh folder, and the paths around them.
    private struct Scene {
        let home: RollHome
        let front: String
        let back: String
        var folder: URL { home.folder.url }

        init(frames: Int = 10) throws {
            home = try RollHome()
            front = try home.clip("front.mp4", seed: 1, frames: frames)
            back = try home.clip("back.mp4", seed: 2, frames: frames)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// The visible and hidden entries of the folder, FEED_HOME's "home" aside.
        func entries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "home" }.sorted()
        }

        /// `feed probe --json FILE` as one object.
        func probe(_ file: String) async throws -> [String: Any] {
            let run = try await home.run(["probe", "--json", file])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(try run.objects().first)
        }
    }

    @Test("two clips stack into one MP4 of the summed height and the clips' length")
    func stacksTwoClips() async throws {
        let scene = try Scene()
        let out = scene.path("out.mp4")

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", out])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "no progress when stderr is not a terminal: \(run.stderr)")
        #expect(run.lines.count == 1 && run.stdout.hasPrefix(out) && run.stdout.contains("64x96"), "\(run.stdout)")
        let info = try await scene.probe(out)
        #expect(info["display_width"] as? Int == 64 && info["display_height"] as? Int == 96)
        let duration = try #require(info["duration"] as? Double)
        #expect(abs(duration - 1.0) < 0.15, "duration \(duration)")
        #expect(try scene.entries() == ["back.mp4", "front.mp4", "out.mp4"], "no temporary file left")
    }

    @Test("--json prints one object with every summary field")
    func jsonSummary() async throws {
        let scene = try Scene()
        let out = scene.path("out.mp4")

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", out, "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try run.json() as? [String: Any])
        #expect(Set(summary.keys) == ["output", "width", "height", "fps", "frames", "duration", "bytes", "seconds", "audio", "offset",
                                      "sync_confidence", "roll_id"])
        #expect(summary["output"] as? String == out)
        #expect(summary["width"] as? Int == 64 && summary["height"] as? Int == 96)
        #expect(summary["fps"] as? Double == 10 && summary["frames"] as? Int == 10)
        #expect(abs((summary["duration"] as? Double ?? 0) - 1.0) < 0.001)
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        #expect(summary["bytes"] as? Int == size)
        #expect((summary["seconds"] as? Double ?? -1) > 0)
        #expect(summary["audio"] is NSNull && summary["roll_id"] is NSNull)
        #expect(summary["offset"] as? Double == 0 && summary["sync_confidence"] is NSNull)
    }

    @Test("an existing output is refused with 73 and left untouched; --force replaces it")
    func existingOutput() async throws {
        let scene = try Scene()
        let out = try scene.home.folder.write("out.mp4", "keep me")

        let refused = try await scene.home.run(["stack", scene.front, scene.back, "-o", out])

        #expect(refused.status == 73)
        #expect(refused.stderr == "feed: \(out): already exists; pass --force to replace it\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")

        let forced = try await scene.home.run(["stack", scene.front, scene.back, "-o", out, "--force"])

        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try await scene.probe(out)["display_height"] as? Int == 96)
        #expect(try scene.entries() == ["back.mp4", "front.mp4", "out.mp4"])
    }

    @Test("a missing input exits 66 naming it, with no output and no temporary file", arguments: [0, 1])
    func missingInput(which: Int) async throws {
        let scene = try Scene()
        let missing = scene.path("nope.mp4")
        let inputs = which == 0 ? [missing, scene.back] : [scene.front, missing]

        let run = try await scene.home.run(["stack"] + inputs + ["-o", scene.path("out.mp4")])

        #expect(run.status == 66)
        #expect(run.stderr.hasPrefix("feed: \(missing)") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try scene.entries() == ["back.mp4", "front.mp4"])
    }

    @Test("an input that is not media exits 65 naming it and FFmpeg's reason, leaving nothing")
    func notMedia() async throws {
        let scene = try Scene()
        let junk = try scene.home.folder.write("junk.mp4", "this is not a video\n")

        let run = try await scene.home.run(["stack", junk, scene.back, "-o", scene.path("out.mp4")])

        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("feed: \(junk): ") && run.stderr.contains("Invalid data"), "\(run.stderr)")
        #expect(try scene.entries() == ["back.mp4", "front.mp4", "junk.mp4"])
    }

    @Test("an output that cannot be created exits 73", arguments: ["plain/out.mp4", "folder"])
    func unwritableOutput(target: String) async throws {
        let scene = try Scene()
        _ = try scene.home.folder.write("plain", "a regular file, not a folder")
        try FileManager.default.createDirectory(atPath: scene.path("folder"), withIntermediateDirectories: false)
        let out = scene.path(target)

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", out])

        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("feed: \(out): "), "\(run.stderr)")
        #expect(try scene.entries() == ["back.mp4", "folder", "front.mp4", "plain"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.path("folder")).isEmpty)
    }

    @Test("bad options exit 64 before anything is written", arguments: [["--crf", "99"], ["--size", "10x"], ["--preset", "turbo"], ["--fps", "0"]])
    func badOption(option: [String]) async throws {
        let scene = try Scene()

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", scene.path("out.mp4")] + option)

        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("feed: "), "\(run.stderr)")
        #expect(try scene.entries() == ["back.mp4", "front.mp4"])
    }

    @Test("--save adds one recording with both sources and the options, and reports its id")
    func save() async throws {
        let scene = try Scene()
        let out = scene.path("out.mp4")

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", out, "--save", "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require((try run.json() as? [String: Any])?["roll_id"] as? Int)
        #expect(run.stderr == "saved to the roll as #\(id)\n")
        let rows = try await scene.home.rows()
        #expect(rows.count == 1 && rows.first?["id"] as? Int == id)
        let show = try await scene.home.run(["roll", "show", String(id), "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let recording = try #require(try show.json() as? [String: Any])
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let sources = try #require(recording["sources"] as? [String])
        #expect(sources.map(real) == [real(scene.front), real(scene.back)])
        #expect(recording["height"] as? Int == 96)
        #expect((recording["original_path"] as? String).map(real) == real(out))
        let saved = try #require(recording["stack_options"] as? [String: Any], "stack_options is an object")
        #expect(saved["layout"] as? String == "vstack" && saved["top"] as? String == "back" && saved["crf"] as? Int == 23)
        #expect(FileManager.default.fileExists(atPath: out), "the output stays where -o put it")
    }

    @Test("--save with a roll that cannot be opened fails before stacking: no output")
    func saveToBrokenRoll() async throws {
        let scene = try Scene()
        try FileManager.default.createDirectory(at: scene.home.home, withIntermediateDirectories: true)
        let database = scene.home.home.appendingPathComponent("roll.sqlite")
        try Data(repeating: 0x5A, count: 4096).write(to: database)
        let out = scene.path("out.mp4")

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", out, "--save"])

        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("feed: \(database.path): "), "\(run.stderr)")
        #expect(try scene.entries() == ["back.mp4", "front.mp4"])
        #expect(try Data(contentsOf: database) == Data(repeating: 0x5A, count: 4096), "the broken roll is left untouched")
    }

    @Test("without --save the roll is not touched")
    func noSave() async throws {
        let scene = try Scene()

        let run = try await scene.home.run(["stack", scene.front, scene.back, "-o", scene.path("out.mp4")])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.home.home.path))
    }

    @Test("SIGINT or SIGTERM while stacking exits 130 and leaves no output and no temporary file",
          arguments: [SIGTERM, SIGINT])
    func interrupted(signal number: Int32) async throws {
        let home = try RollHome()
        let front = try TestMedia.noisyClip(home.folder.url.appendingPathComponent("front.mp4").path, seed: 1, frames: 300)
        let back = try TestMedia.noisyClip(home.folder.url.appendingPathComponent("back.mp4").path, seed: 2, frames: 300)
        let out = home.folder.url.appendingPathComponent("out.mp4").path
        let entries = { try FileManager.default.contentsOfDirectory(atPath: home.folder.url.path).sorted() }

        // veryslow keeps the encoder busy long enough to be caught mid-stack.
        let process = try await promptly {
            let process = try await home.spawn(["stack", front, back, "-o", out, "--preset", "veryslow"])
            try await waitUntil(timeout: 60, every: 0.01) { try process.hasExited || entries().contains(where: { $0.hasSuffix(".part") }) }
            #expect(!process.hasExited, "feed stack ended before the temporary file was seen")
            process.signal(number)
            return process
        }
        await process.exitStatus()

        #expect(process.process.terminationReason == .exit && process.process.terminationStatus == 130)
        #expect(try entries() == ["back.mp4", "front.mp4"])
    }

    @Test("progress is drawn on stderr when it is a terminal",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() async throws {
        let scene = try Scene()
        let out = scene.path("out.mp4")
        let command = [FeedProcess.executable.path, "stack", scene.front, scene.back, "-o", out]
            .map { "'" + $0 + "'" }.joined(separator: " ")

        // script(1) runs the command with stdin, stdout and stderr on a pseudo-terminal.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let log = scene.path("tty.log")
        try Data().write(to: URL(fileURLWithPath: log))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardInput = FileHandle.nullDevice
        try await ChildProcess.run(process)

        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("\r100%  10/10 frames  ") && text.contains(" fps  ETA "), "\(text)")
    }

    @Test("--help shows examples and the exit statuses, SIGTERM's included")
    func help() async throws {
        let run = try await FeedProcess.run(["stack", "--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("EXAMPLES:") && run.stdout.contains("feed stack front.mov back.mp4 -o out.mp4"))
        #expect(run.stdout.contains("--save") && run.stdout.contains("roll_id"))
        // Help is wrapped to the terminal's width: compare with the line breaks as spaces.
        let text = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("130 interrupted by SIGINT or SIGTERM (both 130)"))
    }
}

extension StackCommandTests {
    @Test("an odd --size is encoded one pixel smaller, and stack says so rather than silently")
    func oddSizeIsSaid() async throws {
        let folder = try ScratchFolder()
        let front = try TestMedia.seededClip(folder.path("f.mp4"), seed: 1, width: 64, height: 48, frames: 5, fps: 10)
        let back = try TestMedia.seededClip(folder.path("b.mp4"), seed: 2, width: 64, height: 48, frames: 5, fps: 10)
        let run = try await FeedProcess.run(["stack", front, back, "-o", folder.path("o.mp4"), "--size", "101x77", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("--size 101x77 is encoded as 100x76"), "\(run.stderr)")
        let summary = try #require(try run.json() as? [String: Any])
        #expect(summary["width"] as? Int == 100 && summary["height"] as? Int == 76)
    }
}
