import FeedTestSupport
import Foundation
import Testing

/// `--feed http://…` for list, show, comments, validate, probe: feeds served by
/// `python3 -m http.server` on loopback.
@Suite("remote feeds")
struct RemoteFeedTests {
    /// A served folder: the demo feed and comments, a feed whose clip is a relative path next to
    /// it, and a broken feed.
    final class Site {
        let folder: ScratchFolder
        let server: StaticServer

        init() async throws {
            folder = try ScratchFolder()
            let root = folder.url("site")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("clips"), withIntermediateDirectories: true)
            for name in ["videos.json", "comments.json"] {
                try FileManager.default.copyItem(at: RepositoryFiles.root.appendingPathComponent("Fixtures/\(name)"),
                                                 to: root.appendingPathComponent(name))
            }
            _ = try TestMedia.seededClip(root.appendingPathComponent("clips/a.mp4").path, seed: 3, width: 64, height: 48, frames: 10)
            let relative = #"{"videos":[{"id":7,"username":"u","description":"relative clip","video":"clips/a.mp4","viewers":1,"likes":2}]}"#
            try Data(relative.utf8).write(to: root.appendingPathComponent("relative.json"))
            let local = #"{"videos":[{"id":8,"username":"u","description":"a local file","video":"file:///etc/hostname","viewers":1,"likes":2}]}"#
            try Data(local.utf8).write(to: root.appendingPathComponent("local.json"))
            let scheme = #"{"videos":[{"id":9,"username":"u","description":"a scheme of no protocol","video":"x:a.mp4","viewers":1,"likes":2}]}"#
            try Data(scheme.utf8).write(to: root.appendingPathComponent("scheme.json"))
            try Data(#"{"videos":[{"id":1,"likes":"many"}]}"#.utf8).write(to: root.appendingPathComponent("broken.json"))
            server = try await StaticServer(root)
        }

        func url(_ name: String) -> String { server.base + "/" + name }

        deinit { server.stop() }
    }

    @Test("without --allow-network: exit 64 naming the flag, for every command that reads a feed")
    func needsTheFlag() async throws {
        let site = try await Site()
        for arguments in [["list"], ["show", "1235"], ["comments"], ["probe", "--id", "7"]] {
            let run = try await FeedProcess.run(arguments + ["--feed", site.url("videos.json")])
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("--allow-network") && run.stderr.contains(site.url("videos.json")), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let validate = try await FeedProcess.run(["validate", "--feed", site.url("videos.json")])
        #expect(validate.status == 64 && validate.stderr.contains("--allow-network"), "\(validate.stderr)")
    }

    @Test("list, show and comments read a served feed as they read the same file")
    func sameAsAFile() async throws {
        let site = try await Site()
        let local = site.folder.url("site/videos.json").path
        for arguments in [["list", "--json"], ["show", "1450", "--json"], ["comments", "--json"]] {
            let remote = try await FeedProcess.run(arguments + ["--feed", site.url("videos.json"), "--allow-network"])
            let file = try await FeedProcess.run(arguments + ["--feed", local])
            #expect(remote.status == 0, "\(arguments): \(remote.stderr)")
            #expect(!remote.stdout.isEmpty && remote.stdout == file.stdout, "\(arguments)")
        }
        let comments = try await FeedProcess.run(["comments", "--comments", site.url("comments.json"), "--allow-network", "--count", "2"])
        #expect(comments.status == 0 && comments.lines.count == 2, "\(comments.stderr)")
    }

    @Test("validate: a served feed's problems name its URL; a missing one exits 66")
    func validate() async throws {
        let site = try await Site()
        let good = try await FeedProcess.run(["validate", site.url("videos.json"), "--allow-network"])
        #expect(good.status == 0, "\(good.stderr)")

        let broken = try await FeedProcess.run(["validate", "--feed", site.url("broken.json"), "--allow-network"])
        #expect(broken.status == 65)
        #expect(broken.lines.first?.hasPrefix(site.url("broken.json") + ":1:") == true, "\(broken.stdout)")

        let missing = try await FeedProcess.run(["validate", site.url("nope.json"), "--allow-network"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains(site.url("nope.json")) && missing.stderr.contains("404"), "\(missing.stderr)")
        let list = try await FeedProcess.run(["list", "--feed", site.url("nope.json"), "--allow-network"])
        #expect(list.status == 66 && list.stderr.contains("HTTP 404"), "\(list.stderr)")
    }

    @Test("a served feed's relative clip path is a URL on its server; its file: URLs are never opened")
    func relativeClips() async throws {
        let site = try await Site()
        let probe = try await FeedProcess.run(["probe", "--feed", site.url("relative.json"), "--id", "7", "--allow-network", "--json"])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(try probe.objects().first?["path"] as? String == site.url("clips/a.mp4"))

        let local = try await FeedProcess.run(["probe", "--feed", site.url("local.json"), "--id", "8", "--allow-network"])
        #expect(local.status == 65, "\(local.stdout) \(local.stderr)")
        #expect(local.stderr.contains("file:///etc/hostname"), "\(local.stderr)")
    }

    @Test("a served feed's `x:a.mp4` is a URL of no protocol feed opens, even beside a file of that name: probe and play refuse it")
    func schemeIsNeverAFile() async throws {
        let site = try await Site()
        // The folder feed runs in holds a real clip named as the feed's reference.
        let here = site.folder.url("here")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        _ = try TestMedia.seededClip(here.appendingPathComponent("x:a.mp4").path, seed: 4, width: 64, height: 48, frames: 10)
        let probe = try await FeedProcess.run(["probe", "--feed", site.url("scheme.json"), "--id", "9", "--allow-network", "--json"],
                                              currentDirectory: here)
        #expect(probe.status == 65 && probe.stdout.isEmpty, "\(probe.stdout) \(probe.stderr)")
        #expect(probe.stderr.hasSuffix("\nfeed: x:a.mp4: refused: only local files and http(s) URLs are opened\n"), "\(probe.stderr)")

        let play = try await FeedProcess.run(["play", "--headless", "--json", "--feed", site.url("scheme.json"), "--allow-network", "--script", "pause"],
                                             currentDirectory: here)
        let failed = play.stdout.split(separator: "\n").filter { $0.contains(#""event":"failed""#) }
        #expect(failed.count == 1 && failed[0].contains("only local files and http(s) URLs"), "\(play.stdout) \(play.stderr)")
        #expect(!play.stdout.contains("first_frame"), "the local file was not played: \(play.stdout)")

        // The same name given on the command line is the user's own file.
        let mine = try await FeedProcess.run(["probe", "--json", "x:a.mp4"], currentDirectory: here)
        #expect(mine.status == 0, "\(mine.stderr)")
    }

    @Test("a server that does not answer in time, or refuses: exit 74 naming the URL")
    func unreachable() async throws {
        // Port 9 (discard): nothing listens on it here, so the connection is refused.
        let run = try await FeedProcess.run(["list", "--feed", "http://127.0.0.1:9/videos.json", "--allow-network"])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("http://127.0.0.1:9/videos.json"))
    }
}

extension RemoteFeedTests {
    @Test("a server that is not there: what failed and what to check, not the network library's words (74)")
    func connectionRefused() async throws {
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        let run = try await FeedProcess.run(["list", "--allow-network", "--feed", "http://127.0.0.1:9/videos.json"])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "feed: http://127.0.0.1:9/videos.json: connection refused (nothing listens at that address and port: is the server running?)\n",
                "\(run.stderr)")
        #expect(!run.stderr.contains("errno") && !run.stderr.contains("error set"))
    }
}
