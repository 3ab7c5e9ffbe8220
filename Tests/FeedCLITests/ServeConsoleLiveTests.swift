import FeedTestSupport
import Foundation
import Testing

/// The console's Live view, driven in headless Chromium by Scripts/console_live_check.py against a
/// real `feed serve --rtmp-port` that ffmpeg publishes to: the stream picked from the list, its
/// LL-HLS played through the console's own Media Source Extensions player, a comment and hearts
/// sent; what it did is checked from the server's side too (the comment, with the id the catalog
/// gave it, and the hearts in the event stream of another watcher).
@Suite("feed serve's console: the Live view in a browser")
struct ServeConsoleLiveTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/console_live_check.py").path

    /// `curl -N` following `url` (Server-Sent Events) into `file`, until it is signalled.
    static func watcher(_ url: String, into file: URL) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "--max-time", "900", url]
        FileManager.default.createFile(atPath: file.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        return try ChildProcess(process)
    }

    /// The hearts the `heart` events of `text` (an event stream) carry, summed over the ticks.
    static func hearts(in text: String) -> Int {
        text.components(separatedBy: "event: heart\ndata: {\"count\":").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
    }

    @Test("headless Chromium picks the stream, plays it over MSE (loadeddata, then a second on), shows the chat so far, comments (back through every watcher's events, with the catalog's id) and sends two hearts (the button, a double click: every watcher counts them), then leaves it")
    func liveView() async throws {
        // Given a stream being published, and another watcher of its room from before the browser comes.
        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let created = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"console live"}"#])
        #expect(created.status == 201, "\(created.text)")
        let stream = try created.json()
        let id = try #require(stream["id"] as? Int)
        let key = try #require(stream["stream_key"] as? String)
        let rtmp = try #require(stream["rtmp_url"] as? String)
        let folder = try ScratchFolder()
        // Long enough to outlast the check however slow the machine; killed at the end.
        let publisher = try ServeLiveTests.publisher(rtmp + "/" + key, seconds: 900, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        try #require(try await waitUntil(timeout: 60, every: 0.2) { try await serve.curl("/live/\(id)").json()["state"] as? String == "active" },
                     "the stream never went active: \(String(decoding: (try? Data(contentsOf: folder.url("publisher.log"))) ?? Data(), as: UTF8.self))")
        let events = folder.url("events")
        let watcher = try Self.watcher(serve.base + "/live/\(id)/events", into: events)
        defer { watcher.signal(SIGKILL) }
        func seen() -> String { String(decoding: (try? Data(contentsOf: events)) ?? Data(), as: UTF8.self) }
        try #require(try await waitUntil(timeout: 30, every: 0.1) { seen().contains("event: viewers") }, "no events: \(seen())")
        // And a comment from before the browser came, which its chat shows from the history.
        let earlier = try await serve.curl("/live/\(id)/comments", ["-X", "POST", "-d", #"{"username":"early","comment":"said before ✓"}"#])
        #expect(earlier.status == 201, "\(earlier.text)")

        // When the console's Live view is driven in Chromium (each of its waits has 120 s: a
        // bound, not a wait; the page goes on at each event).
        try #require(FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromium) && FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromedriver),
                     "\(CrossOriginPage.chromium) and \(CrossOriginPage.chromedriver): Debian's chromium and chromium-driver (make deps installs them)")
        let python = try await CrossOriginPage.python.get()
        let run = try await Tool.run(python, [Self.script, serve.base, "--stream", String(id), "--timeout", "120",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "console_live_check.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")

        // Then the page played the stream, saw its own comment come back, counted the hearts and a viewer, and let it go.
        #expect(run.status == 0, "\(found) \(run.stderr)")
        #expect((found["errors"] as? [String])?.isEmpty == true, "\(found)")
        #expect(found["stream"] as? Int == id, "\(found)")
        #expect((found["loadeddata_ms"] as? Double).map { $0 >= 0 } == true, "\(found)")
        #expect((found["advanced"] as? Double).map { $0 >= 1 } == true, "\(found)")
        #expect(found["history"] as? [String] == ["said before ✓"], "\(found)")
        #expect(found["comment_seen"] as? Bool == true, "\(found)")
        #expect((found["hearts"] as? Int).map { $0 >= 2 } == true, "\(found)")
        #expect((found["viewers"] as? Int).map { $0 >= 1 } == true, "\(found)")
        #expect(found["left"] as? Bool == true, "\(found)")
        let comment = try #require(found["comment"] as? [String: Any], "\(found)")
        let commentID = try #require(comment["id"] as? Int, "\(found)")
        let username = try #require(comment["username"] as? String), text = try #require(comment["text"] as? String)

        // Every watcher of the room got the comment and both hearts, however the ticks split them.
        let heard = try await waitUntil(timeout: 30, every: 0.1) {
            seen().contains(#"event: comment\#ndata: {"id":\#(commentID),"username":"\#(username)","#) && Self.hearts(in: seen()) >= 2
        }
        #expect(heard && seen().contains(text), "\(seen())")
        #expect(Self.hearts(in: seen()) == 2, "one from the button, one from the double click: \(seen())")

        // SIGKILL: a child of the test process may inherit SIGTERM ignored.
        watcher.signal(SIGKILL)
        _ = await watcher.exitStatus()
        #expect(try await serve.curl("/live/\(id)", ["-X", "DELETE"]).status == 200)
        #expect(await publisher.exits(within: 30), "the publisher was not disconnected")
        #expect(await serve.stop() == 0)
    }
}
