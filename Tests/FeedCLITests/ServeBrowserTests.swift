import FeedTestSupport
import Foundation
import Testing

/// Scripts/cross_origin_page.py: headless Chromium (Debian's `chromium` and `chromium-driver`)
/// driven by selenium (from PyPI, in `.build/selenium-venv`, made once) opens a page of another
/// origin whose own JavaScript lists /videos, plays a clip and uploads one with tus.
enum CrossOriginPage {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/cross_origin_page.py").path
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// The venv's python, or why there is none: made once, by the first test that asks.
    static var python: Result<String, PyPIVenv.SetupError> {
        get async { await setup.value }
    }

    private static let setup = Task {
        let venv = PyPIVenv(name: "selenium-venv", package: "selenium", probe: ["-c", "import selenium.webdriver"])
        return await venv.make().map { venv.bin("python") }
    }

    /// Runs the page against the server at `base`, uploading `clip` with the metadata title
    /// `title`; the run and the JSON object it printed. Each step of the page has 60 s (a bound, not a wait: the page goes on at each
    /// event). The browser takes a permit of ``ProcessLimiter``: it is the heaviest child there is.
    static func run(against base: String, upload clip: String, title: String) async throws -> (run: FeedRun, found: [String: Any]) {
        try #require(FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: chromedriver),
                     "\(chromium) and \(chromedriver): Debian's chromium and chromium-driver (make deps installs them)")
        let python = try await python.get()
        let run = try await Tool.run(python, [script, base, clip, "--title", title, "--timeout", "60",
                                                  "--chromium", chromium, "--chromedriver", chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "cross_origin_page.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")
        return (run, found)
    }
}

/// `feed serve` as a web app on another origin uses it, in a real browser over real sockets:
/// CORS on /videos, on the media a <video crossorigin> plays, and on every step of tus.
@Suite("feed serve in a browser: a page of another origin")
struct ServeBrowserTests {
    /// A home whose feed is one local clip (3 s, 64x48), and another clip to upload: the feed, the
    /// clip to upload and its bytes.
    static func feedHome() throws -> (RollHome, feed: String, upload: String, bytes: Data) {
        let home = try RollHome()
        _ = try TestMedia.seededClip(home.folder.path("clip.mp4"), seed: 31, width: 64, height: 48, frames: 30, fps: 10)
        let upload = try TestMedia.seededClip(home.folder.path("upload.mp4"), seed: 32, width: 64, height: 48, frames: 30, fps: 10)
        let feed = try home.folder.write("feed.json", #"{"videos": [{"id": 1, "username": "ann", "video": "clip.mp4"}]}"#)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: upload))
        return (home, feed, upload, bytes)
    }

    @Test("headless Chromium on another origin lists /videos, plays the clip, uploads with tus; the recording is in the roll")
    func crossOrigin() async throws {
        let (home, feed, upload, bytes) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed], home: home)

        let (run, found) = try await CrossOriginPage.run(against: server.base, upload: upload, title: "From a page")

        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        let origin = try #require(found["page_origin"] as? String)
        #expect(origin.hasPrefix("http://127.0.0.1:") && origin != server.base, "another port, another origin: \(origin)")
        // a) the list
        #expect(found["videos"] as? Int == 1, "\(found)")
        #expect(found["media_url"] as? String == server.base + "/media/videos/1")
        // b) the clip played, and its frame could be read back (CORS on the media too)
        let video = try #require(found["video"] as? [String: Any], "\(found)")
        #expect(video["width"] as? Int == 64 && video["height"] as? Int == 48, "\(video)")
        #expect((video["current_time"] as? Double ?? 0) > 0, "\(video)")
        #expect((video["pixel"] as? [Int])?.count == 3, "\(video)")
        // c) the upload: two PATCHes, the second from the offset the first answered
        let state = try #require(found["upload"] as? [String: Any], "\(found)")
        #expect(state["length"] as? Int == bytes.count)
        #expect(state["offsets"] as? [Int] == [(bytes.count + 1) / 2, bytes.count], "\(state)")
        #expect(state["state"] as? String == "done", "\(state)")
        let id = try #require(state["recording_id"] as? Int, "\(state)")
        let uploadID = try #require(state["id"] as? String)
        #expect(state["url"] as? String == server.base + "/uploads/" + uploadID)
        // The browser asked before each kind of request a page may not make unasked.
        #expect(server.stderr.contains("OPTIONS /uploads 204"), "\(server.stderr)")

        // The recording, through the server and through the CLI on the same home.
        let listed = try await server.curl("/roll").json()["recordings"] as? [[String: Any]]
        let http = try #require(listed?.first { $0["id"] as? Int == id }, "\(listed ?? [])")
        #expect(http["title"] as? String == "From a page" && http["bytes"] as? Int == bytes.count, "\(http)")
        let cli = try #require(try await home.rows().first { $0["id"] as? Int == id })
        let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(cli["file"] as? String)))
        #expect(stored == bytes)
        await server.stop()
    }

    @Test("with --token and no --cors the server answers but the browser keeps it from the page: the script fails, naming CORS")
    func refused() async throws {
        let (home, feed, upload, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed, "--token", "s3cret"], home: home)

        let (run, found) = try await CrossOriginPage.run(against: server.base, upload: upload, title: "From a page")

        #expect(run.status == 1, "\(run.stdout)")
        let errors = try #require(found["errors"] as? [String: String], "\(found)")
        #expect(errors["videos"] == "TypeError: Failed to fetch", "\(errors)")
        #expect(errors["play"]?.hasPrefix("not tried") == true, "\(errors)")
        #expect(errors["upload"] == "TypeError: Failed to fetch", "\(errors)")
        #expect(run.stderr.contains("blocked by CORS policy"), "\(run.stderr)")
        #expect(server.stderr.contains("GET /videos 401"), "the server did answer (the page sends no token): \(server.stderr)")
        #expect(try await home.rows().isEmpty)
        await server.stop()
    }

    @Test("signed links play in Chromium with no header: the file, and the HLS ladder where Chromium plays HLS; changed: an error")
    func signedLinks() async throws {
        let (_, server, secret) = try await ServeAccessTests.keyedServer()
        let recording = try await ServeAccessTests.newestRecording(server, secret: secret)
        let url = try #require(recording["url"] as? String), hls = try #require(recording["hls_url"] as? String)
        let tampered = url.replacingOccurrences(of: "/media/roll/1?", with: "/media/roll/2?")
        let python = try await CrossOriginPage.python.get()
        let run = try await Tool.run(python, [RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/signed_playback.py").path,
                                              url, hls, tampered, "--page", server.base + "/openapi.json", "--timeout", "60",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        let results = try #require(found["results"] as? [String: String])
        #expect(results[url] == "played", "\(results)")
        #expect(results[tampered]?.hasPrefix("error") == true, "a changed link is refused (403): \(results)")
        if let canPlay = found["hls"] as? String, !canPlay.isEmpty {
            #expect(results[hls] == "played", "Chromium says it plays HLS (\(canPlay)): \(results)")
        }
        await server.stop()
    }
}
