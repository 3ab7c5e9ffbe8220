import FeedCore
import FeedTestSupport
import Foundation
import Testing

/// A recording's HLS ladder: `feed roll hls` caches it in the roll, `verify` knows the cache,
/// `rm` removes it, and `feed serve` serves it under `/roll/{id}/hls/` for ffmpeg to play.
@Suite("feed roll hls and /roll/{id}/hls")
struct RollHLSTests {
    /// A roll holding one 7 s 240x426 clip with sound; its id.
    static func roll() async throws -> (RollHome, id: String) {
        let home = try RollHome()
        let clip = try await HLSCommandTests.clip(home.folder, "clip.mp4", width: 240, height: 426, seconds: 7, audio: true)
        let added = try await home.run(["roll", "add", clip, "--json"])
        try #require(added.status == 0, "\(added.stderr)")
        let id = try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [[String: Any]])?.first?["id"])
        return (home, "\(id)")
    }

    @Test("roll hls packages once and caches; verify reports a stale ladder and --fix deletes it; rm removes the cache")
    func cache() async throws {
        let (home, id) = try await Self.roll()
        let first = try await home.run(["roll", "hls", id, "--ladder", "240,144", "--json"])
        try #require(first.status == 0, "\(first.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let master = try #require(summary["master"] as? String)
        #expect(master.hasPrefix(home.recordings.path + "/.hls/\(id)-") && master.hasSuffix("/master.m3u8"))
        #expect((summary["variants"] as? [[String: Any]])?.compactMap { $0["resolution"] as? String } == ["240x426", "144x256"])
        // Named and sized as feed hls --json names them.
        #expect((summary["variants"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["240p", "144p"])
        #expect((summary["variants"] as? [[String: Any]])?.map { "\($0["width"] ?? "")x\($0["height"] ?? "")" } == ["240x426", "144x256"])
        let made = try FileManager.default.attributesOfItem(atPath: master)[.modificationDate] as? Date

        // Cached: the second call prints the same path and writes nothing.
        let again = try await home.run(["roll", "hls", id])
        #expect(again.status == 0 && again.stdout == master + "\n", "\(again.stdout)\(again.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: master)[.modificationDate] as? Date == made)
        #expect(try await home.run(["roll", "verify"]).status == 0)

        // A ladder no recording owns (an id that does not exist) is stale.
        let stale = home.recordings.appendingPathComponent(".hls/999-abcdefabcdef")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status != 0 && verify.stdout.contains("stale HLS ladder .hls/999-abcdefabcdef"), "\(verify.stdout)\(verify.stderr)")
        #expect(try await home.run(["roll", "verify", "--fix"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: master))

        // rm takes the cache with it.
        #expect(try await home.run(["roll", "rm", id]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.recordings.path + "/.hls").isEmpty)
        #expect(try await home.run(["roll", "hls", id]).status == 65)
    }

    @Test("feed serve packages on first request; ffmpeg plays every rung over HTTP; MIME types, gzip, 304, strict names")
    func served() async throws {
        let (home, id) = try await Self.roll()
        let server = try await ServeProcess(["--quiet"], home: home)
        let base = "/roll/\(id)/hls"

        let master = try await server.curl(base + "/master.m3u8")
        #expect(master.status == 200 && master.headers["content-type"] == "application/vnd.apple.mpegurl", "\(master.status) \(master.text)")
        let variants = try HLSMaster.variants(parsing: master.text, path: "master")
        #expect(variants.map(\.uri) == ["240p/index.m3u8"])

        // ffmpeg reads the master playlist and every segment over HTTP.
        let maps = ["0"] + variants.indices.map { "0:p:\($0)" }
        for map in maps {
            let play = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", server.base + base + "/master.m3u8", "-map", map, "-f", "null", "-"])
            let clean = play.status == 0 && play.stderr.isEmpty
            #expect(clean, "\(map): \(play.stderr)")
        }
        let rung = try await server.curl(base + "/240p/index.m3u8")
        #expect(rung.status == 200 && rung.text.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(try await server.curl(base + "/240p/init.mp4", ["-I"]).headers["content-type"] == "video/mp4")
        let segment = try await server.curl(base + "/240p/segment_00000.m4s", ["-r", "0-99"])
        #expect(segment.status == 206 && segment.body.count == 100 && segment.headers["content-type"] == "video/iso.segment")

        // gzip when asked; the tags differ per encoding and each gives a 304.
        let zipped = try await server.curl(base + "/master.m3u8", ["-H", "Accept-Encoding: gzip"])
        #expect(zipped.headers["content-encoding"] == "gzip" && zipped.headers["vary"] == "Accept-Encoding")
        #expect(zipped.body.starts(with: [0x1F, 0x8B]))
        let unzipped = try await server.curl(base + "/master.m3u8", ["--compressed"])
        #expect(unzipped.text == master.text)
        let tag = try #require(zipped.headers["etag"])
        #expect(tag != master.headers["etag"])
        #expect(try await server.curl(base + "/master.m3u8", ["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(tag)"]).status == 304)
        #expect(try await server.curl(base + "/master.m3u8", ["-H", "If-None-Match: \(master.headers["etag"] ?? "")"]).status == 304)

        // Only names the packager makes; nothing else is looked up.
        for bad in ["/240p/../../roll.sqlite", "/240p/%2e%2e%2froll.sqlite", "/..%2f..%2froll.sqlite", "/240p/segment_1.m4s",
                    "/240p/index.m3u8%00", "/abc/index.m3u8", "/240p/segment_99999.m4s", "/1080p/index.m3u8"] {
            let reply = try await server.curl(base + bad)
            #expect([400, 404].contains(reply.status), "\(bad): \(reply.status)")
            #expect(!reply.text.contains("SQLite format"), "\(bad)")
        }
        #expect(try await server.curl("/roll/999/hls/master.m3u8").status == 404)
        await server.stop()
    }

    @Test("two recordings asked for at once with --jobs 1: both ladders come, each packaged once")
    func twoAtOnce() async throws {
        let (home, first) = try await Self.roll()
        let clip = try await HLSCommandTests.clip(home.folder, "other.mp4", width: 144, height: 256, seconds: 3)
        let added = try await home.run(["roll", "add", clip, "--json"])
        try #require(added.status == 0, "\(added.stderr)")
        let second = "\(try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [[String: Any]])?.first?["id"]))"
        let server = try await ServeProcess(["--jobs", "1"], home: home)
        let scratch = try ScratchFolder()
        // Four requests at once, two per recording.
        var clients: [ChildProcess] = []
        for (index, id) in [first, second, first, second].enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-o", scratch.path("\(index)"), "-w", "%{http_code}", server.base + "/roll/\(id)/hls/master.m3u8"]
            FileManager.default.createFile(atPath: scratch.path("code\(index)"), contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: scratch.url("code\(index)"))
            clients.append(try ChildProcess(process))   // curl: no permit, like ServeProcess.curl
        }
        for client in clients { await client.exitStatus() }
        for index in 0..<4 {
            #expect(try String(contentsOf: scratch.url("code\(index)"), encoding: .utf8) == "200")
            #expect(try String(contentsOf: scratch.url("\(index)"), encoding: .utf8).contains("#EXT-X-STREAM-INF"))
        }
        // Each recording has one ladder and no leftover work folder.
        let cache = try FileManager.default.contentsOfDirectory(atPath: home.recordings.path + "/.hls").sorted()
        #expect(cache.count == 2 && cache.allSatisfy { !$0.hasPrefix(".") }, "\(cache)")
        #expect(try await home.run(["roll", "verify"]).status == 0)
        await server.stop()
    }

    @Test("a recording changed after roll hls: verify names the change and the stale ladder; one --fix repairs both, exit 0")
    func changedRecordingOnePassFix() async throws {
        // Given a recording with its ladder cached, whose stored bytes are then replaced.
        let (home, id) = try await Self.roll()
        let first = try await home.run(["roll", "hls", id])
        try #require(first.status == 0, "\(first.stderr)")
        let ladder = URL(fileURLWithPath: first.stdout.trimmingCharacters(in: .newlines)).deletingLastPathComponent()
        let stored = home.recordings.appendingPathComponent(try #require(home.storedFiles().first))
        let other = try await HLSCommandTests.clip(home.folder, "other.mp4", width: 144, height: 256, seconds: 2)
        try FileManager.default.removeItem(at: stored)
        try FileManager.default.copyItem(atPath: other, toPath: stored.path)

        // verify names both; one --fix repairs both and exits 0; a second verify finds nothing.
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 1)
        #expect(verify.lines.count == 2 && verify.stdout.contains("recording \(id): ") && verify.stdout.contains(" changed ")
                && verify.stdout.contains("problem: stale HLS ladder .hls/\(ladder.lastPathComponent)"), "\(verify.stdout)")
        let fix = try await home.run(["roll", "verify", "--fix"])
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(fix.lines.count == 2 && fix.lines.allSatisfy { $0.hasPrefix("fixed: ") }, "\(fix.stdout)")
        #expect(fix.stderr == "checked 1 recording: no problems\n", "\(fix.stderr)")
        let again = try await home.run(["roll", "verify"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ladder.path))

        // The ladder is made again, under the name of the bytes as they are now.
        let remade = try await home.run(["roll", "hls", id])
        #expect(remade.status == 0 && remade.stdout.hasPrefix(home.recordings.path + "/.hls/\(id)-") && remade.stdout != first.stdout,
                "\(remade.stdout)\(remade.stderr)")
    }
}
