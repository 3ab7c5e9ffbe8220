import Crypto
import FeedTestSupport
import Foundation
import Testing

/// `feed faststart` and the server's fast start: a phone-style clip (`moov` after the media,
/// audio interleaved, B-frames) made by ffmpeg, moved `moov`-first with the same decoded frames,
/// served that way over HTTP with ranges, and `preload_bytes` checked against ffmpeg.
@Suite("fast start and preload_bytes")
struct FastStartTests {
    /// A 2 s 360x640 H.264 + AAC clip as phones write it: `moov` at the end.
    static func phoneClip(_ path: String, seconds: Int = 2) async throws -> String {
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=\(seconds)",
                                                       "-f", "lavfi", "-i", "sine=frequency=440:d=\(seconds)", "-c:v", "libx264",
                                                       "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                                       "-shortest", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// ffmpeg's framemd5 of every stream of `input` (a file or URL): one line per decoded frame.
    static func frames(_ input: String, first: Bool = false) async throws -> [String] {
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", input] + (first ? ["-map", "0:v", "-frames:v", "1"] : ["-map", "0"])
                                      + ["-f", "framemd5", "-"])
        return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    static func moov(_ path: String) async throws -> String? {
        let probe = try await FeedProcess.run(["probe", path, "--json"])
        let objects = try probe.objects()
        return objects.first?["moov"] as? String
    }

    /// The shortest prefix of `file` from which ffmpeg decodes its first picture, by bisection.
    static func shortestFirstPicture(_ file: Data, scratch: ScratchFolder) async throws -> Int {
        let whole = scratch.path("whole.mp4"), part = scratch.path("part.mp4")
        try file.write(to: URL(fileURLWithPath: whole))
        let wanted = try await frames(whole, first: true)
        var (low, high) = (0, file.count)  // low fails, high works
        while high - low > 1 {
            let middle = (low + high) / 2
            try file.prefix(middle).write(to: URL(fileURLWithPath: part))
            if try await frames(part, first: true) == wanted, !wanted.isEmpty { high = middle } else { low = middle }
        }
        return high
    }

    @Test("feed faststart moves moov first with the same decoded frames; already fast start is copied; refusals leave nothing")
    func command() async throws {
        let scratch = try ScratchFolder()
        let phone = try await Self.phoneClip(scratch.path("phone.mp4"))
        let before = try await Self.moov(phone)
        #expect(before == "end")
        let out = scratch.path("web.mp4")
        let run = try await FeedProcess.run(["faststart", phone, "-o", out, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try run.json() as? [String: Any])
        #expect(report["moov"] as? String == "moved")
        let after = try await Self.moov(out)
        #expect(after == "start")
        let original = try Data(contentsOf: URL(fileURLWithPath: phone)), moved = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(moved.count == original.count && report["bytes"] as? Int == moved.count)
        let frames = try await Self.frames(phone)
        #expect(frames.count > 60)
        let movedFrames = try await Self.frames(out)
        #expect(movedFrames == frames)

        // preload_bytes: the first picture decodes from that prefix, and no shorter one is more than 1.2x shorter.
        let preload = try #require(report["preload_bytes"] as? Int)
        let shortest = try await Self.shortestFirstPicture(moved, scratch: scratch)
        #expect(preload >= shortest && Double(preload) <= 1.2 * Double(shortest), "preload \(preload), shortest \(shortest)")

        let again = try await FeedProcess.run(["faststart", out, "-o", scratch.path("copy.mp4")])
        #expect(again.status == 0 && again.stdout.contains("already"))
        #expect(try Data(contentsOf: scratch.url("copy.mp4")) == moved)

        let exists = try await FeedProcess.run(["faststart", phone, "-o", out])
        #expect(exists.status == 73 && exists.stderr.contains("web.mp4"), "\(exists.stderr)")
        let text = try scratch.write("notes.mp4", "not a video\n")
        let notMedia = try await FeedProcess.run(["faststart", text, "-o", scratch.path("x.mp4")])
        #expect(notMedia.status == 65 && notMedia.stderr.contains("notes.mp4"), "\(notMedia.stderr)")
        let missing = try await FeedProcess.run(["faststart", scratch.path("nope.mp4"), "-o", scratch.path("y.mp4")])
        #expect(missing.status == 66)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".part") || $0 == "x.mp4" || $0 == "y.mp4" }
        #expect(left.isEmpty, "\(left)")

        let inPlace = try await FeedProcess.run(["faststart", phone, "-o", phone, "--force"])
        #expect(inPlace.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: phone)) == moved)
    }

    @Test("feed serve gives a moov-at-end clip and recording moov first, same frames over HTTP with ranges; preload_bytes prefixes decode")
    func served() async throws {
        let home = try RollHome()
        let phone = try await Self.phoneClip(home.folder.path("phone.mp4"))
        _ = try TestMedia.seededClip(home.folder.path("small.mp4"), seed: 3, width: 64, height: 48, frames: 20, fps: 10)
        let feed = try home.folder.write("feed.json", """
            {"videos": [
              {"id": 1, "username": "ann", "description": "phone", "video": "phone.mp4"},
              {"id": 2, "username": "bob", "description": "already fast start", "video": "small.mp4"}
            ]}
            """)
        let added = try await home.run(["roll", "add", phone, "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: phone))
        let expected = try await FeedProcess.run(["faststart", phone, "-o", home.folder.path("expected.mp4")])
        #expect(expected.status == 0)
        let fastStart = try Data(contentsOf: home.folder.url("expected.mp4"))
        let frames = try await Self.frames(phone)

        let server = try await ServeProcess(["--feed", feed], home: home)
        let videos = try #require(try await server.curl("/videos").json()["videos"] as? [[String: Any]])
        let recordings = try #require(try await server.curl("/roll").json()["recordings"] as? [[String: Any]])
        let recording = try #require(recordings.first)
        // The fingerprint stays the bytes as they were added.
        #expect(recording["sha256"] as? String == SHA256.hash(data: original).map { String(format: "%02x", $0) }.joined())

        for path in ["/media/videos/1", "/media/roll/\(recording["id"]!)"] {
            let whole = try await server.curl(path)
            #expect(whole.status == 200 && whole.body == fastStart, "\(path)")
            // A preloaded prefix is reused for a minute without asking again.
            #expect(whole.headers["cache-control"] == "private, max-age=60")
            let range = try await server.curl(path, ["-r", "1000-70000"])
            #expect(range.status == 206 && range.body == fastStart[1000...70000], "\(path)")
            #expect(range.headers["content-range"] == "bytes 1000-70000/\(fastStart.count)")
            let overHTTP = try await Self.frames(server.base + path)
            #expect(overHTTP == frames, "\(path) over HTTP")
        }

        // Every clip of the feed and the roll: its first picture decodes from its preload_bytes.
        let scratch = try ScratchFolder()
        let items: [(String, Any?)] = videos.map { ($0["video"] as? String ?? "", $0["preload_bytes"]) }
            + [(recording["url"] as? String ?? "", recording["preload_bytes"])]
        #expect(items.count == 3)
        for (index, (url, preload)) in items.enumerated() {
            let bytes = try #require(preload as? Int, "\(url) has no preload_bytes")
            let prefix = try await server.curl(String(url.dropFirst(server.base.count)), ["-r", "0-\(bytes - 1)"])
            #expect(prefix.status == 206 && prefix.body.count == bytes)
            let file = scratch.path("prefix\(index).mp4")
            try prefix.body.write(to: URL(fileURLWithPath: file))
            let first = try await Self.frames(file, first: true)
            let wanted = try await Self.frames(url, first: true)
            #expect(!first.isEmpty && first == wanted, "\(url): no first picture from \(bytes) bytes")
        }
        #expect(videos[0]["preload_bytes"] as? Int == recording["preload_bytes"] as? Int)
        // What was sent says its own digest (RFC 9530); original_url sends the bytes sha256 names.
        let base64 = { (data: Data) in "sha-256=:" + Data(SHA256.hash(data: data)).base64EncodedString() + ":" }
        let served = try await server.curl("/media/roll/\(recording["id"]!)")
        #expect(served.headers["repr-digest"] == base64(fastStart) && served.headers["repr-digest"] != base64(original), "\(served.headers)")
        let originalURL = try #require(recording["original_url"] as? String)
        #expect(originalURL == (recording["url"] as? String ?? "") + "?original=1")
        let stored = try await server.curl(String(originalURL.dropFirst(server.base.count)))
        #expect(stored.status == 200 && stored.body == original && stored.headers["repr-digest"] == base64(original), "\(stored.headers)")
        let storedRange = try await server.curl(String(originalURL.dropFirst(server.base.count)), ["-r", "0-99"])
        #expect(storedRange.status == 206 && storedRange.body == original.prefix(100) && storedRange.headers["repr-digest"] == base64(original),
                "a range's Repr-Digest is the whole representation's")
        // Pexels' shape carries the same hint on each of its video_files.
        let pexels = try #require(try await server.curl("/v1/videos/search?query=phone").json()["videos"] as? [[String: Any]])
        let files = try #require(pexels.first?["video_files"] as? [[String: Any]])
        #expect(files.first?["preload_bytes"] as? Int == videos[0]["preload_bytes"] as? Int && files.first?["preload_bytes"] is Int)
        let stopped = await server.stop()
        #expect(stopped == 0)
        // The served copy lives in the roll's cache; removing the recording removes it.
        let copies = try FileManager.default.contentsOfDirectory(atPath: home.recordings.appendingPathComponent(".faststart").path)
        #expect(copies.count == 2, "\(copies)")
        let removed = try await home.run(["roll", "rm", "\(recording["id"]!)"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.recordings.appendingPathComponent(".faststart").path).count == 1)
    }

    @Test("a feed clip replaced while served: the new version's copy is served and the old copy is deleted")
    func clipReplaced() async throws {
        let home = try RollHome()
        let phone = try await Self.phoneClip(home.folder.path("phone.mp4"), seconds: 1)
        let feed = try home.folder.write("feed.json", #"{"videos": [{"id": 1, "username": "ann", "video": "phone.mp4"}]}"#)
        let server = try await ServeProcess(["--feed", feed], home: home)
        let cache = home.recordings.appendingPathComponent(".faststart").path
        let first = try await server.curl("/media/videos/1")
        #expect(first.status == 200)
        let before = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(before.count == 1 && before[0].hasPrefix("clip-"), "\(before)")

        // Another take written over the clip (as an editor saves): another size and time.
        let next = try await Self.phoneClip(home.folder.path("next.mp4"), seconds: 2)
        #expect(rename(next, phone) == 0)
        let expected = try await FeedProcess.run(["faststart", phone, "-o", home.folder.path("expected.mp4")])
        #expect(expected.status == 0, "\(expected.stderr)")
        let second = try await server.curl("/media/videos/1")
        let remuxed = try Data(contentsOf: home.folder.url("expected.mp4"))
        #expect(second.status == 200 && second.body == remuxed)
        let after = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(after.count == 1 && after != before, "\(before) -> \(after)")
        #expect(await server.stop() == 0)
    }

    @Test("feed serve, at start, deletes the copies of clips no longer in its feed once unread for a week; the feed's, recent ones and recordings' stay")
    func copiesOfClipsThatLeft() async throws {
        let home = try RollHome()
        let kept = try await Self.phoneClip(home.folder.path("kept.mp4"), seconds: 1)
        let gone = try await Self.phoneClip(home.folder.path("gone.mp4"), seconds: 1)
        // Clips recorded ten days ago, their copies read last eight days ago (set below).
        let day = 24 * 3600, now = Int(Date().timeIntervalSince1970)
        func age(_ path: String, days: Int) -> Int32 {
            var times = [timespec(tv_sec: now - days * day, tv_nsec: 0), timespec(tv_sec: now - days * day, tv_nsec: 0)]
            return utimensat(AT_FDCWD, path, &times, 0)
        }
        #expect(age(kept, days: 10) == 0 && age(gone, days: 10) == 0)
        let both = try home.folder.write("both.json", """
            {"videos": [{"id": 1, "username": "ann", "video": "kept.mp4"}, {"id": 2, "username": "bob", "video": "gone.mp4"}]}
            """)
        let first = try await ServeProcess(["--feed", both], home: home)
        for id in [1, 2] { #expect(try await first.curl("/media/videos/\(id)").status == 200) }
        #expect(await first.stop() == 0)

        let cache = home.recordings.appendingPathComponent(".faststart")
        let made = try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted()
        #expect(made.count == 2 && made.allSatisfy { $0.hasPrefix("clip-") }, "\(made)")
        // Another server's copy read two days ago, and a recording's copy (left to roll verify).
        let recent = "clip-0123456789abcdef-1000-2000.mp4", recording = "20261101-120000-phone.mp4"
        for name in [recent, recording] { try Data("copy\n".utf8).write(to: cache.appendingPathComponent(name)) }
        for (name, days) in [(made[0], 8), (made[1], 8), (recent, 2), (recording, 30)] {
            #expect(age(cache.appendingPathComponent(name).path, days: days) == 0)
        }

        let one = try home.folder.write("one.json", #"{"videos": [{"id": 1, "username": "ann", "video": "kept.mp4"}]}"#)
        let second = try await ServeProcess(["--feed", one], home: home)
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(left.count == 3 && left.contains(recent) && left.contains(recording), "\(made) -> \(left)")
        let keptCopy = try #require(left.first { $0.hasPrefix("clip-") && $0 != recent })
        #expect(made.contains(keptCopy))
        #expect(second.stderr.contains("removed 1 fast-start copy of clips not in this feed"), "\(second.stderr)")
        // The clip still in the feed is served from the copy it kept, not made again.
        let before = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(keptCopy).path)[.systemFileNumber] as? Int
        let expected = try await FeedProcess.run(["faststart", kept, "-o", home.folder.path("expected.mp4")])
        #expect(expected.status == 0, "\(expected.stderr)")
        let reply = try await second.curl("/media/videos/1")
        let remuxed = try Data(contentsOf: home.folder.url("expected.mp4"))
        #expect(reply.status == 200 && reply.body == remuxed)
        let after = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(keptCopy).path)[.systemFileNumber] as? Int
        #expect(before != nil && before == after)
        #expect(await second.stop() == 0)
    }

    @Test("a recording rewritten on disk after its copy was made: the copy is made again from the file as it is")
    func recordingRewritten() async throws {
        let home = try RollHome()
        let phone = try await Self.phoneClip(home.folder.path("phone.mp4"), seconds: 1)
        let added = try await home.run(["roll", "add", phone, "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let feed = try home.folder.write("feed.json", #"{"videos": []}"#)
        let server = try await ServeProcess(["--feed", feed], home: home)
        let recording = try #require((try await server.curl("/roll").json()["recordings"] as? [[String: Any]])?.first)
        let stored = home.recordings.appendingPathComponent(try #require(recording["file_name"] as? String)).path
        let first = try await server.curl("/media/roll/\(recording["id"]!)")
        #expect(first.status == 200)

        let next = try await Self.phoneClip(home.folder.path("next.mp4"), seconds: 2)
        #expect(rename(next, stored) == 0)
        let expected = try await FeedProcess.run(["faststart", stored, "-o", home.folder.path("expected.mp4")])
        #expect(expected.status == 0, "\(expected.stderr)")
        let remuxed = try Data(contentsOf: home.folder.url("expected.mp4"))
        let second = try await server.curl("/media/roll/\(recording["id"]!)")
        #expect(second.status == 200 && second.body == remuxed && second.body != first.body)
        #expect(await server.stop() == 0)
    }

    @Test("a copy that cannot be made (recordings/.faststart is a file): the original is served, as it is, every time")
    func copyRefused() async throws {
        let home = try RollHome()
        let phone = try await Self.phoneClip(home.folder.path("phone.mp4"))
        let feed = try home.folder.write("feed.json", #"{"videos": [{"id": 1, "username": "ann", "video": "phone.mp4"}]}"#)
        try FileManager.default.createDirectory(at: home.recordings, withIntermediateDirectories: true)
        try Data("in the way\n".utf8).write(to: home.recordings.appendingPathComponent(".faststart"))
        let server = try await ServeProcess(["--feed", feed], home: home)
        let original = try Data(contentsOf: URL(fileURLWithPath: phone))
        for _ in 0..<2 {
            let reply = try await server.curl("/media/videos/1")
            #expect(reply.status == 200 && reply.body == original)
        }
        #expect(await server.stop() == 0)
    }
}
