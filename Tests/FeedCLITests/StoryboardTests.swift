import FeedTestSupport
import Foundation
import Testing

/// `feed storyboard` and the server's storyboards: cues that cover the duration and point inside
/// the sprite, distinct tiles, refusals; served per recording, signed on a keyed server.
@Suite("storyboards")
struct StoryboardTests {
    /// The cues of a WebVTT storyboard: (start, end, x, y, w, h, image).
    static func cues(_ text: String) throws -> [(start: Double, end: Double, x: Int, y: Int, w: Int, h: Int, image: String)] {
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.split(separator: ":").compactMap { Double($0) }
            return parts.reduce(0) { $0 * 60 + $1 }
        }
        var out: [(Double, Double, Int, Int, Int, Int, String)] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "WEBVTT")
        for (index, line) in lines.enumerated() where line.contains(" --> ") {
            let times = line.components(separatedBy: " --> ")
            let target = lines[index + 1]
            let parts = target.split(separator: "#xywh=")
            let box = try #require(parts.count == 2 ? parts[1].split(separator: ",").compactMap { Int($0) } : nil)
            try #require(box.count == 4, "\(target)")
            out.append((seconds(Substring(times[0])), seconds(Substring(times[1])), box[0], box[1], box[2], box[3], String(parts[0])))
        }
        return out
    }

    /// Checks cues against a sprite: contiguous from 0 to `duration`, each box inside the sprite, all boxes different.
    static func check(_ cues: [(start: Double, end: Double, x: Int, y: Int, w: Int, h: Int, image: String)], sprite: [UInt8], duration: Double) throws {
        let size = try #require(ImageHeader.jpegSize(sprite))
        #expect(cues.first?.start == 0 && abs((cues.last?.end ?? 0) - duration) < 0.002, "\(cues.first!) … \(cues.last!) for \(duration) s")
        for (earlier, later) in zip(cues, cues.dropFirst()) { #expect(earlier.end == later.start && earlier.end > earlier.start) }
        for cue in cues { #expect(cue.x >= 0 && cue.y >= 0 && cue.x + cue.w <= size.width && cue.y + cue.h <= size.height, "\(cue) in \(size)") }
        #expect(Set(cues.map { "\($0.x),\($0.y)" }).count == cues.count)
    }

    @Test("feed storyboard: a tile a second, cues over the whole duration inside the sprite, tiles that differ; refusals leave nothing")
    func command() async throws {
        let scratch = try ScratchFolder()
        // 7.5 s, 10 fps, portrait: 8 tiles of 96x160 in 3 columns.
        let clip = try TestMedia.seededClip(scratch.path("clip.mp4"), seed: 61, width: 96, height: 160, frames: 75, fps: 10)
        let run = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path("board"), "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try run.json() as? [String: Any])
        #expect(report["tiles"] as? Int == 8 && report["columns"] as? Int == 3)
        #expect(report["tile_width"] as? Int == 96 && report["tile_height"] as? Int == 160)
        let sprite = [UInt8](try Data(contentsOf: scratch.url("board/storyboard.jpg")))
        let cues = try Self.cues(try String(contentsOfFile: scratch.path("board/storyboard.vtt"), encoding: .utf8))
        #expect(cues.count == 8 && cues.allSatisfy { $0.image == "storyboard.jpg" })
        try Self.check(cues, sprite: sprite, duration: 7.5)
        #expect(ImageHeader.jpegSize(sprite).map { $0.width == 288 && $0.height == 480 } == true)
        // Each tile is another moment of the clip: the pictures in the sprite differ.
        var hashes: Set<String> = []
        for cue in cues {
            let crop = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", scratch.path("board/storyboard.jpg"), "-vf",
                                                              "crop=\(cue.w):\(cue.h):\(cue.x):\(cue.y)", "-f", "framemd5", "-"])
            hashes.insert(crop.stdout.split(separator: "\n").last.map(String.init) ?? "")
        }
        #expect(hashes.count == 8)

        let again = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path("board")])
        #expect(again.status == 73 && again.stderr.contains("storyboard.jpg"), "\(again.stderr)")
        let missing = try await FeedProcess.run(["storyboard", scratch.path("nope.mp4"), "-o", scratch.path("b2")])
        #expect(missing.status == 66)
        let text = try scratch.write("notes.mp4", "not a video\n")
        let notMedia = try await FeedProcess.run(["storyboard", text, "-o", scratch.path("b3")])
        #expect(notMedia.status == 65, "\(notMedia.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b2")) && !FileManager.default.fileExists(atPath: scratch.path("b3")))
        let bad = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path("b4"), "--tiles", "0"])
        #expect(bad.status == 64)

        // --force replaces both; when the old cues cannot be removed (here a folder in their place),
        // it stops before the sprite: never new tiles under old cues.
        let forced = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path("board"), "--tiles", "4", "--force", "--json"])
        let forcedReport = try forced.json() as? [String: Any]
        #expect(forced.status == 0 && forcedReport?["tiles"] as? Int == 4, "\(forced.stderr)")
        #expect(try Self.cues(try String(contentsOfFile: scratch.path("board/storyboard.vtt"), encoding: .utf8)).count == 4)
        try FileManager.default.removeItem(atPath: scratch.path("board/storyboard.vtt"))
        try FileManager.default.createDirectory(atPath: scratch.path("board/storyboard.vtt/held"), withIntermediateDirectories: true)
        let spriteBefore = try Data(contentsOf: scratch.url("board/storyboard.jpg"))
        let blocked = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path("board"), "--force"])
        #expect(blocked.status == 73 && blocked.stderr.contains("storyboard.vtt"), "\(blocked.stderr)")
        #expect(try Data(contentsOf: scratch.url("board/storyboard.jpg")) == spriteBefore)
    }

    @Test("SIGTERM or SIGINT mid-way: 130, one line, no folder and no file left", arguments: [SIGTERM, SIGINT])
    func interrupted(signal number: Int32) async throws {
        let scratch = try ScratchFolder()
        // 40 s with one key frame: every picture is decoded, so the work outlasts the signal.
        let clip = scratch.path("long.mp4")
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=480x854:rate=25:duration=40",
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000", "-pix_fmt", "yuv420p", clip])
        try #require(made.status == 0, "\(made.stderr)")
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = ["storyboard", clip, "-o", scratch.path("board")]
        process.standardOutput = FileHandle.nullDevice
        let errURL = scratch.url("stderr")
        try Data().write(to: errURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let child = try await promptly {
            let child = try await ChildProcess.start(process)
            // The signal is sent once feed's trap catches it (SigCgt in /proc/PID/status: the
            // trap's dispatch source handles it), so it reaches the trap, not the default action.
            let trapped = try await waitUntil(timeout: 60, every: 0.002) {
                Self.catches(pid: child.pid, signal: number) || child.hasExited
            }
            #expect(trapped && !child.hasExited, "feed storyboard ended before it could be interrupted")
            child.signal(number)
            return child
        }
        #expect(await child.exitStatus() == 130)
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        #expect(stderr == "feed: \(clip): interrupted; no output was left\n", "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["long.mp4", "stderr"])
    }

    /// Whether process `pid` has a handler for `signal` (its SigCgt mask in /proc).
    static func catches(pid: Int32, signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    @Test("key frames further apart than tiles (decoded on, not sought): the same tiles as from a copy where every picture is a key frame")
    func longKeyFrameInterval() async throws {
        let scratch = try ScratchFolder()
        // The same 12 s of pictures, each different, losslessly twice: one key frame, then one per picture.
        func encode(_ name: String, gop: Int) async throws -> String {
            let path = scratch.path(name)
            let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x160:rate=10:duration=12",
                                                             "-c:v", "libx264", "-qp", "0", "-g", String(gop), "-keyint_min", String(gop),
                                                             "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p", path])
            try #require(run.status == 0, "\(run.stderr)")
            return path
        }
        let long = try await encode("long.mp4", gop: 1000), intra = try await encode("intra.mp4", gop: 1)
        for (clip, board) in [(long, "long"), (intra, "intra")] {
            let run = try await FeedProcess.run(["storyboard", clip, "-o", scratch.path(board)])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let sprite = { (board: String) in try Data(contentsOf: scratch.url("\(board)/storyboard.jpg")) }
        #expect(try sprite("long") == sprite("intra"), "the tiles of the long-GOP clip are other pictures")
        #expect(try String(contentsOfFile: scratch.path("long/storyboard.vtt"), encoding: .utf8)
                == String(contentsOfFile: scratch.path("intra/storyboard.vtt"), encoding: .utf8))
        let cues = try Self.cues(try String(contentsOfFile: scratch.path("long/storyboard.vtt"), encoding: .utf8))
        #expect(cues.count == 12)
        try Self.check(cues, sprite: [UInt8](try sprite("long")), duration: 12)
    }

    @Test("a keyed server: storyboard_url and dash_url are signed links; the cues' sprite URL is signed and opens with no header; ffmpeg plays the DASH link")
    func served() async throws {
        let (home, server, secret) = try await ServeAccessTests.keyedServer()
        let recording = try await ServeAccessTests.newestRecording(server, secret: secret)
        let cuesURL = try #require(recording["storyboard_url"] as? String)
        #expect(cuesURL.contains("/storyboard.vtt?exp=") && cuesURL.contains("&sig="))
        let reply = try await ServeProcess.curl(cuesURL)
        #expect(reply.status == 200 && reply.headers["content-type"] == "text/vtt; charset=utf-8", "\(reply.status)")
        let cues = try Self.cues(String(decoding: reply.body, as: UTF8.self))
        let image = try #require(cues.first?.image)
        #expect(image.hasPrefix("storyboard.jpg?exp=") && image.contains("&sig="), "\(image)")
        let spriteURL = try #require(URL(string: image, relativeTo: URL(string: cuesURL))?.absoluteString)
        let sprite = try await ServeProcess.curl(spriteURL)
        #expect(sprite.status == 200 && sprite.headers["content-type"] == "image/jpeg")
        let duration = try #require(recording["duration"] as? Double)
        try Self.check(cues, sprite: [UInt8](sprite.body), duration: duration)
        let tampered = spriteURL.replacingOccurrences(of: "/media/roll/1/", with: "/media/roll/2/")
        #expect(try await ServeProcess.curl(tampered).status == 403)
        #expect(try await server.curl("/media/roll/1/storyboard.vtt").status == 401)
        // Made once, kept beside the posters.
        #expect(home.hidden(".thumbs").contains("1-storyboard"))

        let dash = try #require(recording["dash_url"] as? String)
        #expect(dash.contains("/hls/manifest.mpd?exp="))
        let manifest = try await ServeProcess.curl(dash)
        #expect(manifest.status == 200 && manifest.headers["content-type"] == "application/dash+xml")
        let text = String(decoding: manifest.body, as: UTF8.self)
        #expect(text.contains(#"sourceURL=""#) && text.components(separatedBy: "&amp;sig=").count > 2, "\(text.prefix(600))")
        let play = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", dash, "-map", "0:v:0", "-f", "framemd5", "-"])
        let frames = play.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        #expect(play.status == 0 && frames == 30, "\(frames) frames: \(play.stderr)")
        #expect(await server.stop() == 0)
    }
}
