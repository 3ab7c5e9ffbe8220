import FeedTestSupport
import Foundation
import Testing

/// `feed play` of a remote feed through the clip cache, and `feed cache` / `feed cache clear`.
@Suite("feed cache")
struct CacheCommandTests {
    /// A served feed of three clips given as paths relative to it, a request log, and a cache
    /// folder (`XDG_CACHE_HOME`).
    final class Setting {
        let folder: ScratchFolder
        let server: StaticServer
        var log: URL { folder.url("requests.log") }
        /// No FEED_HOME (empty counts as unset), so the cache is XDG_CACHE_HOME's; the roll goes
        /// to XDG_DATA_HOME, here too.
        var environment: [String: String] {
            ["FEED_HOME": "", "XDG_CACHE_HOME": folder.url("xdg").path, "XDG_DATA_HOME": folder.url("data").path]
        }
        var feed: String { server.base + "/feed.json" }

        init() async throws {
            folder = try ScratchFolder()
            let site = folder.url("site")
            try FileManager.default.createDirectory(at: site.appendingPathComponent("clips"), withIntermediateDirectories: true)
            var videos: [String] = []
            for index in 0..<3 {
                _ = try TestMedia.seededClip(site.appendingPathComponent("clips/\(index).mp4").path, seed: index, width: 64, height: 48, frames: 10)
                videos.append(#"{"id":\#(700 + index),"username":"u","description":"clip \#(index)","video":"clips/\#(index).mp4","viewers":1,"likes":1}"#)
            }
            try Data(#"{"videos":[\#(videos.joined(separator: ","))]}"#.utf8).write(to: site.appendingPathComponent("feed.json"))
            server = try await StaticServer(site, log: folder.url("requests.log"))
        }

        /// How many times each clip was fetched (GET requests, by clip index).
        func downloads() -> [Int] {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            return (0..<3).map { index in lines.count { $0.contains("\"GET /clips/\(index).mp4 ") } }
        }

        func play(_ script: String) async throws -> FeedRun {
            try await FeedProcess.run(["play", "--headless", "--json", "--feed", feed, "--allow-network", "--script", script],
                                      environment: environment)
        }

        deinit { server.stop() }
    }

    static func firstFrames(_ run: FeedRun) -> [Int] {
        run.lines.compactMap { line -> Int? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "first_frame" else { return nil }
            return object["position"] as? Int
        }
    }

    @Test("a remote feed plays through the cache: swiping back and playing again download nothing more")
    func playsOnce() async throws {
        let setting = try await Setting()

        let run = try await setting.play("next,next,prev,prev")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.firstFrames(run) == [0, 1, 2, 1, 0], "\(run.stdout)")
        #expect(setting.downloads() == [1, 1, 1])

        let again = try await setting.play("next,next")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.firstFrames(again) == [0, 1, 2])
        #expect(setting.downloads() == [1, 1, 1], "the second run plays from the cache")
    }

    @Test("two players at once share the cache: each clip is downloaded once")
    func twoPlayers() async throws {
        let setting = try await Setting()
        let outputs = [setting.folder.url("one.ndjson"), setting.folder.url("two.ndjson")]
        var players: [ChildProcess] = []
        for output in outputs {
            let process = Process()
            process.executableURL = FeedProcess.executable
            process.arguments = ["play", "--headless", "--json", "--feed", setting.feed, "--allow-network", "--script", "next,next,prev"]
            process.environment = ProcessInfo.processInfo.environment.merging(setting.environment) { $1 }
            try Data().write(to: output)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            players.append(try await ChildProcess.start(process))
        }
        var statuses: [Int32] = []
        for player in players { statuses.append(await player.exitStatus()) }

        #expect(statuses == [0, 0])
        for output in outputs {
            let run = FeedRun(status: 0, stdout: try String(contentsOf: output, encoding: .utf8), stderr: "")
            #expect(Self.firstFrames(run) == [0, 1, 2, 1], "\(run.stdout)")
        }
        #expect(setting.downloads() == [1, 1, 1])
    }

    @Test("feed cache lists the clips and the total; clear empties it; --no-cache streams without keeping anything")
    func listAndClear() async throws {
        let setting = try await Setting()
        let empty = try await FeedProcess.run(["cache"], environment: setting.environment)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.lines.last?.hasPrefix("0 clips, 0 B of 1 GiB in \(setting.folder.url("xdg/feed/clips").path)") == true, "\(empty.stdout)")

        #expect(try await setting.play("next").status == 0)
        let listed = try await FeedProcess.run(["cache", "--json"], environment: setting.environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["url"] as? String }) == Set((0..<3).map { "\(setting.server.base)/clips/\($0).mp4" }),
                "the current clip and both neighbours were fetched")
        #expect(entries.allSatisfy { $0["complete"] as? Bool == true })
        #expect((object["bytes"] as? Int ?? 0) >= entries.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) })
        let table = try await FeedProcess.run(["cache"], environment: setting.environment)
        #expect(table.lines.count == 5 && table.lines[0].hasPrefix("URL") && table.lines[4].hasPrefix("3 clips, "), "\(table.stdout)")

        let cleared = try await FeedProcess.run(["cache", "clear"], environment: setting.environment)
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("freed "), "\(cleared.stdout)")
        #expect(try await FeedProcess.run(["cache"], environment: setting.environment).lines.last?.hasPrefix("0 clips") == true)

        #expect(try await FeedProcess.run(["play", "--headless", "--json", "--feed", setting.feed, "--allow-network", "--no-cache",
                                           "--script", "next"], environment: setting.environment).status == 0)
        #expect(try await FeedProcess.run(["cache"], environment: setting.environment).lines.last?.hasPrefix("0 clips") == true)
    }

    @Test("a password in a feed's URL is never printed nor kept: errors, the cache's listing and its files say alice:***@")
    func credentialsAreRedacted() async throws {
        let setting = try await Setting()
        let base = setting.server.base.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        let played = try await FeedProcess.run(["play", "--headless", "--json", "--feed", base + "/feed.json", "--allow-network",
                                                "--script", "next"], environment: setting.environment)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(Self.firstFrames(played) == [0, 1], "the clips are fetched with the feed's credentials: \(played.stdout)")
        let listed = try await FeedProcess.run(["cache", "--json"], environment: setting.environment)
        #expect(listed.stdout.contains("http://alice:***@127.0.0.1") && !listed.stdout.contains("s3cret"), "\(listed.stdout)")
        let cache = setting.folder.url("xdg/feed/clips")
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) where !name.hasSuffix(".clip") {
            let text = String(decoding: try Data(contentsOf: cache.appendingPathComponent(name)), as: UTF8.self)
            #expect(!text.contains("s3cret"), "\(name): \(text)")
        }

        for arguments in [["list", "--feed", base + "/nope.json", "--allow-network"],
                          ["validate", base + "/nope.json", "--allow-network"],
                          ["probe", "--allow-network", base + "/clips/9.mp4"]] {
            let missing = try await FeedProcess.run(arguments, environment: setting.environment)
            #expect(missing.status != 0 && missing.stderr.contains("alice:***@") && !missing.stderr.contains("s3cret"),
                    "\(arguments[0]): \(missing.stderr)")
        }
    }
}
