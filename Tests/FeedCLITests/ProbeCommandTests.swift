import FeedTestSupport
import Foundation
import Testing

@Suite("feed probe")
struct ProbeCommandTests {
    /// A 64x48 10 fps clip of `frames` frames, tagged with `rotation` like a phone's portrait video.
    private static func clip(_ folder: ScratchFolder, _ name: String, rotation: Int = 0, frames: Int = 10) throws -> String {
        try TestMedia.seededClip(folder.url.appendingPathComponent(name).path, seed: 0, width: 64, height: 48, frames: frames,
                                 fps: 10, rotation: rotation)
    }

    @Test("the table has one row per file with the clip's container, length, codec, sizes and rate")
    func table() async throws {
        let folder = try ScratchFolder()
        let a = try Self.clip(folder, "a.mp4")
        let b = try Self.clip(folder, "b.mp4", frames: 20)

        let run = try await FeedProcess.run(["probe", a, b], environment: ["COLUMNS": "400"])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.lines.count == 3)
        let header = run.lines[0].split(separator: " ").map(String.init)
        #expect(header == ["FILE", "CONTAINER", "DURATION", "VIDEO", "CODED", "DISPLAY", "ROTATION", "FPS", "AUDIO", "BYTES"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: b)[.size] as? Int)
        #expect(run.lines[1].split(separator: " ").map(String.init) == [a, "mp4", "1.00s", "h264", "64x48", "64x48", "0", "10.00", "-", "\(try #require(FileManager.default.attributesOfItem(atPath: a)[.size] as? Int))"])
        #expect(run.lines[2].split(separator: " ").map(String.init) == [b, "mp4", "2.00s", "h264", "64x48", "64x48", "0", "10.00", "-", "\(size)"])
    }

    @Test("paths are never cut: piped, and in a terminal narrower than the line")
    func wholePaths() async throws {
        let folder = try ScratchFolder()
        let deep = folder.url.appendingPathComponent("phones/android/2026/november/trip")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let android = try Self.clip(folder, "phones/android/2026/november/trip/android.mp4")
        let iphone = try Self.clip(folder, "phones/android/2026/november/trip/iphone.mp4")

        let piped = try await FeedProcess.run(["probe", android, iphone])
        let terminal = try await FeedProcess.runInTerminal(["probe", android, iphone], columns: 60)

        for run in [piped, terminal] {
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.lines.count == 3, "\(run.stdout)")
            #expect(run.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == [android, iphone])
            #expect(!run.stdout.contains("…"))
        }
    }

    @Test("a variable-rate clip shows its nominal rate, vfr and its average")
    func variableRate() async throws {
        let folder = try ScratchFolder()
        let path = folder.path("drops.mp4")
        _ = try NumberedClip.write(path, fps: 30, times: (0..<90).filter { $0 % 5 != 4 }.map { Double($0) / 30 })

        let table = try await FeedProcess.run(["probe", path])
        let json = try await FeedProcess.run(["probe", "--json", path]).objects()

        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.lines[1].contains(" 30.00 vfr avg 24."), "\(table.lines[1])")
        let info = try #require(json.first)
        #expect(info["variable_frame_rate"] as? Bool == true)
        #expect(abs((info["nominal_fps"] as? Double ?? 0) - 30) < 0.01 && abs((info["fps"] as? Double ?? 0) - 24) < 0.5)
    }

    @Test("--json gives every field, snake_case, audio fields null without audio")
    func json() async throws {
        let folder = try ScratchFolder()
        let a = try Self.clip(folder, "a.mp4")

        let run = try await FeedProcess.run(["probe", "--json", a])

        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.objects()
        #expect(objects.count == 1)
        let info = try #require(objects.first)
        #expect(Set(info.keys) == ["path", "container", "duration", "video_codec", "coded_width", "coded_height", "display_width",
                                   "display_height", "rotation", "fps", "nominal_fps", "variable_frame_rate", "audio_codec", "audio_sample_rate",
                                   "audio_channels", "bytes", "moov"])
        #expect(info["path"] as? String == a && info["container"] as? String == "mp4" && info["video_codec"] as? String == "h264")
        #expect(info["coded_width"] as? Int == 64 && info["coded_height"] as? Int == 48)
        #expect(info["display_width"] as? Int == 64 && info["display_height"] as? Int == 48 && info["rotation"] as? Int == 0)
        #expect(abs((info["duration"] as? Double ?? 0) - 1.0) < 0.01 && info["fps"] as? Double == 10)
        #expect(abs((info["nominal_fps"] as? Double ?? 0) - 10) < 0.001)
        #expect(info["variable_frame_rate"] as? Bool == false)
        #expect(info["audio_codec"] is NSNull && info["audio_sample_rate"] is NSNull && info["audio_channels"] is NSNull)
        #expect(info["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: a)[.size] as? Int))
    }

    @Test("moov: end for an MP4 written as phones write it, start once remuxed with faststart, null for another container")
    func moov() async throws {
        let folder = try ScratchFolder()
        let end = folder.path("end.mp4"), start = folder.path("start.mp4"), avi = folder.path("raw.avi")
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1",
                                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", end])
        #expect(made.status == 0, "\(made.stderr)")
        let remuxed = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", end, "-c", "copy", "-movflags", "+faststart", start])
        #expect(remuxed.status == 0, "\(remuxed.stderr)")
        _ = try HostileMedia.rawVideoAVI(avi, width: 16, height: 16)
        let run = try await FeedProcess.run(["probe", "--json", end, start, avi])
        let objects = try run.objects()
        #expect(objects.map { $0["moov"] as? String } == ["end", "start", nil], "\(run.stdout)")
        #expect(objects.last?["moov"] is NSNull)
    }

    @Test("a clip tagged rotate=90 reports rotation 90 and the display size swapped")
    func rotated() async throws {
        let folder = try ScratchFolder()
        let clip = try Self.clip(folder, "portrait.mp4", rotation: 90)

        let json = try await FeedProcess.run(["probe", "--json", clip])
        let table = try await FeedProcess.run(["probe", clip], environment: ["COLUMNS": "400"])

        #expect(json.status == 0 && table.status == 0, "\(json.stderr)\(table.stderr)")
        let info = try #require(try json.objects().first)
        #expect(info["rotation"] as? Int == 90)
        #expect(info["coded_width"] as? Int == 64 && info["coded_height"] as? Int == 48)
        #expect(info["display_width"] as? Int == 48 && info["display_height"] as? Int == 64)
        let row = table.lines[1].split(separator: " ").map(String.init)
        #expect(row[4...6] == ["64x48", "48x64", "90"])
    }

    @Test("a missing file exits 66 naming it")
    func missing() async throws {
        let folder = try ScratchFolder()
        let missing = folder.url.appendingPathComponent("nope.mp4").path

        let run = try await FeedProcess.run(["probe", missing])

        #expect(run.status == 66)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("feed: \(missing): ") && run.lines.isEmpty && run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a file this user may not read exits 74 (I/O), not 65: probe and stack say it cannot be read",
          .enabled(if: getuid() == 0, "needs root, to run feed as another user (nobody)"))
    func unreadable() async throws {
        let folder = try ScratchFolder()
        chmod(folder.url.path, 0o755)
        let clip = folder.path("clip.mp4")
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.5", clip])
        #expect(made.status == 0, "\(made.stderr)")
        chmod(clip, 0)
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", FeedProcess.executable.path]
        for command in [["probe", clip], ["stack", clip, clip, "-o", "/tmp/never-\(UUID().uuidString).mp4"]] {
            let run = try await Tool.run("/usr/bin/setpriv", asNobody + command)
            #expect(run.status == 74 && run.stderr == "feed: \(clip): cannot be read: Permission denied\n", "\(command[0]): \(run.status) \(run.stderr)")
        }
    }

    @Test("a file that is not media exits 65 with FFmpeg's reason", arguments: ["", "just some text\n"])
    func notMedia(content: String) async throws {
        let folder = try ScratchFolder()
        let junk = try folder.write("junk.mp4", content)

        let run = try await FeedProcess.run(["probe", junk])

        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("feed: \(junk): ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("with several files the good ones are still listed and the status is the first failure's")
    func mixed() async throws {
        let folder = try ScratchFolder()
        let good = try Self.clip(folder, "good.mp4")
        let missing = folder.url.appendingPathComponent("nope.mp4").path
        let junk = try folder.write("junk.mp4", "text")

        let run = try await FeedProcess.run(["probe", "--json", missing, good, junk])

        #expect(run.status == 66)
        #expect(try run.objects().map { $0["path"] as? String } == [good])
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 3, "\(run.stderr)")
        #expect(errors[0].hasPrefix("feed: \(missing): ") && errors[1].hasPrefix("feed: \(junk): "))
        #expect(errors[2] == "feed: 2 of 3 files could not be probed")
    }

    @Test("--help shows examples and the exit statuses")
    func help() async throws {
        let run = try await FeedProcess.run(["probe", "--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("EXAMPLES:") && run.stdout.contains("feed probe clip.mp4"))
        #expect(run.stdout.contains("video_codec") && run.stdout.contains("66") && run.stdout.contains("65"))
    }

    @Test("--id probes a feed video's clip, a relative path taken from the feed file's folder")
    func feedItem() async throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("clips"), withIntermediateDirectories: true)
        let clip = try Self.clip(folder, "clips/a.mp4")
        let feed = try folder.write("feed.json", #"{"videos": [{"id": 7, "username": "u", "video": "clips/a.mp4"}, {"id": 8, "username": "u", "video": "nope.mp4"}]}"#)

        let run = try await FeedProcess.run(["probe", "--json", "--feed", feed, "--id", "7"], currentDirectory: URL(fileURLWithPath: "/"))
        let missing = try await FeedProcess.run(["probe", "--feed", feed, "--id", "7", "--id", "8", "--json"])
        let unknown = try await FeedProcess.run(["probe", "--feed", feed, "--id", "9"])
        let noID = try await FeedProcess.run(["probe", "--feed", feed])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().map { $0["path"] as? String } == [clip])
        #expect(missing.status == 66)
        #expect(try missing.objects().count == 1)
        #expect(missing.stderr.contains("feed: \(folder.url.path)/nope.mp4: no such file"), "\(missing.stderr)")
        #expect(unknown.status == 65 && unknown.stderr == "feed: \(feed): no video or post has id 9\n", "\(unknown.stderr)")
        #expect(noID.status == 64 && noID.stderr.contains("--feed needs --id"), "\(noID.stderr)")
    }

    @Test("an http(s) clip is refused without --allow-network: 64, as every command refuses a URL, and the message says so")
    func networkNeedsTheFlag() async throws {
        let run = try await FeedProcess.run(["probe", "--id", "1450"])
        let url = try await FeedProcess.run(["probe", "https://127.0.0.1:9/a.mp4"])
        let list = try await FeedProcess.run(["list", "--feed", "https://127.0.0.1:9/videos.json"])

        #expect(run.status == 64)
        #expect(run.stderr == "feed: https://d2uj5sc6syma2y.cloudfront.net/video/66b9883a9e85e.mp4: a network URL; pass --allow-network to read it\n")
        #expect(url.status == 64 && url.stderr.contains("--allow-network"), "\(url.stderr)")
        #expect(list.status == url.status, "one exit status for a URL without --allow-network: list \(list.status), probe \(url.status)")
    }

    @Test("a server that accepts the connection and never answers: probe gives up after its 30 s read timeout, 74 naming the URL, not hanging for ever")
    func silentServer() async throws {
        // Accepts every connection and holds it, sending nothing.
        let server = try await ScriptedServer("""
            import socket, sys
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            open(sys.argv[1], "w").write(str(s.getsockname()[1]))
            held = []
            while True:
                held.append(s.accept()[0])
            """)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/a.mp4"
        let run = try await FeedProcess.run(["probe", url, "--allow-network"])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "feed: \(url): cannot be read: Connection timed out\n", "\(run.stderr)")
    }

    @Test("a clip from a server that ignores Range (python -m http.server) is probed from its headers, as ffprobe does")
    func serverWithoutRanges() async throws {
        let folder = try ScratchFolder()
        let fast = try Self.clip(folder, "fast.mp4", frames: 30)
        // ffmpeg's own mp4 muxer puts the index at the end: reading it means seeking back after.
        let remux = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", fast, "-c", "copy", folder.url.appendingPathComponent("plain.mp4").path])
        #expect(remux.status == 0, "\(remux.stderr)")
        let server = try await StaticServer(folder.url)
        defer { server.stop() }
        let run = try await FeedProcess.run(["probe", "--allow-network", "--json", server.base + "/plain.mp4"])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try #require(try run.objects().first)
        #expect(info["width"] as? Int == 64 || info["display_width"] as? Int != nil, "\(info)")
        #expect((info["duration"] as? Double ?? 0) > 0.5, "\(info)")
    }
}
