import FeedTestSupport
import Foundation
import Testing

/// The console at `/`: served from the binary, and driven in headless Chromium by
/// Scripts/console_check.py against a real `feed serve` (swipes, like, drag-and-drop upload,
/// a stack job), with what it did checked from the CLI's side.
@Suite("feed serve's console in a browser")
struct ServeConsoleTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/console_check.py").path

    @Test("headless Chromium swipes three times (each new video reaches loadeddata), likes one (feed list --liked shows it), uploads by drag and drop, stacks two recordings to done")
    func console() async throws {
        let home = try RollHome()
        // Four local clips (portrait, 30 frames), one recording already in the roll, another clip to upload.
        for index in 1...4 {
            _ = try TestMedia.seededClip(home.folder.path("v\(index).mp4"), seed: 40 + index, width: 96, height: 160, frames: 30, fps: 10)
        }
        let feed = try home.folder.write("feed.json", """
            {"videos": [
              {"id": 1, "username": "ann", "description": "one #console", "video": "v1.mp4"},
              {"id": 2, "username": "bob", "description": "two", "video": "v2.mp4"},
              {"id": 3, "username": "cy", "description": "three", "video": "v3.mp4"},
              {"id": 4, "username": "di", "description": "four", "video": "v4.mp4"}
            ]}
            """)
        let seeded = try TestMedia.seededClip(home.folder.path("seed.mp4"), seed: 50, width: 96, height: 160, frames: 20, fps: 10)
        #expect(try await home.run(["roll", "add", seeded]).status == 0)
        let upload = try TestMedia.seededClip(home.folder.path("upload.mp4"), seed: 51, width: 96, height: 160, frames: 20, fps: 10)
        let server = try await ServeProcess(["--feed", feed], home: home)

        try #require(FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromium), "Debian's chromium (make deps installs it)")
        let python = try await CrossOriginPage.python.get()
        let run = try await Tool.run(python, [Self.script, server.base, "--upload", upload, "--timeout", "60",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "console_check.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")
        #expect(run.status == 0, "\(found) \(run.stderr)")
        #expect((found["errors"] as? [String])?.isEmpty == true, "\(found)")

        // Each swipe went to the next video of the feed, in order, and it reached loadeddata.
        let swipes = try #require(found["swipes"] as? [[String: Any]])
        #expect(swipes.map { "\($0["id"] ?? "")" } == ["2", "3", "4"], "\(swipes)")
        #expect(swipes.allSatisfy { ($0["ms"] as? Double).map { $0 >= 0 } == true }, "\(swipes)")

        // The like is the CLI's too (an open server's marks are the CLI's user's).
        let liked = try #require(found["liked"].map { "\($0)" })
        let list = try await home.run(["list", "--feed", feed, "--liked", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let likedIDs = try list.objects().map { "\($0["id"] ?? "")" }
        #expect(likedIDs == [liked], "\(list.stdout)")

        // The upload is a recording; the stack job made a third one from it and the seeded one.
        let uploaded = try #require(found["uploaded"] as? Int)
        let job = try #require(found["job"] as? [String: Any])
        #expect(job["state"] as? String == "done", "\(job)")
        let rows = try await home.rows()
        #expect(rows.contains { $0["id"] as? Int == uploaded && $0["title"] as? String == "console check" }, "\(rows)")
        let stacked = try #require(rows.first { $0["id"] as? Int == job["recording"] as? Int }, "\(rows)")
        #expect((stacked["sources"] as? [String])?.count == 2, "\(stacked)")
        #expect(await server.stop() == 0)
    }

    @Test("headless Chromium: the API down at load is one toast and no Stack button; a clip the roll had is said to be there already; a poster whose signed link expired is read again")
    func edges() async throws {
        let home = try RollHome()
        let seeded = try TestMedia.seededClip(home.folder.path("seed.mp4"), seed: 52, width: 96, height: 160, frames: 20, fps: 10)
        #expect(try await home.run(["roll", "add", seeded]).status == 0)
        let token = "console-edges-admin-token"
        let server = try await ServeProcess(["--quiet", "--token", token], home: home)
        try #require(FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromium), "Debian's chromium (make deps installs it)")
        let python = try await CrossOriginPage.python.get()
        let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/console_edges.py").path
        let run = try await Tool.run(python, [script, server.base, "--token", token, "--again", seeded, "--timeout", "60",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "console_edges.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")
        #expect(run.status == 0 && (found["errors"] as? [String])?.isEmpty == true, "\(found) \(run.stderr)")
        #expect(try await home.rows().count == 1, "the same bytes again added nothing")
        #expect(await server.stop() == 0)
    }

    @Test("/ and its assets: no token needed even on a keyed server (the API still 401s), a strict CSP, ETag and 304, gzip")
    func assets() async throws {
        let (_, server, _) = try await ServeAccessTests.keyedServer()
        let page = try await server.curl("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"src="console/console.js""#) && html.contains(#"href="console/console.css""#))
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'") && policy.contains("object-src 'none'") && !policy.contains("unsafe"))
        #expect(page.headers["x-content-type-options"] == "nosniff")
        for (path, type) in [("/console/console.js", "text/javascript; charset=utf-8"), ("/console/console.css", "text/css; charset=utf-8")] {
            let asset = try await server.curl(path)
            #expect(asset.status == 200 && asset.headers["content-type"] == type && asset.body.count > 1000, "\(path)")
            let etag = try #require(asset.headers["etag"])
            #expect(try await server.curl(path, ["-H", "If-None-Match: \(etag)"]).status == 304)
            let packed = try await server.curl(path, ["-H", "Accept-Encoding: gzip"])
            #expect(packed.headers["content-encoding"] == "gzip" && packed.body.count < asset.body.count)
        }
        #expect(try await server.curl("/videos").status == 401)
        #expect(await server.stop() == 0)
    }
}
