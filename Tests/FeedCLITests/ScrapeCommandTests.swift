import FeedTestSupport
import Foundation
import Testing

/// `feed scrape`: files, stdin and pages served over HTTP by `python3 -m http.server`.
@Suite("feed scrape")
struct ScrapeCommandTests {
    static let page = """
        <!doctype html><html><head><title>Clips</title>
        <link rel="prefetch" as="video" href="clips/one.mp4">
        <meta property="og:video" content="https://cdn.example.com/og.mp4">
        </head><body>
        <div class="feed"><video src="clips/two.mp4" poster="posters/two.jpg"><p>unclosed
        <video><source src="/abs/three.webm"><source src="clips/one.mp4"></video>
        </body>
        """

    static func videos(_ run: FeedRun) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require(object?["videos"] as? [[String: Any]], "\(run.stdout)\(run.stderr)")
    }

    @Test("a file: the page's videos in order, once each, resolved against the file; ids stable; listable by feed list")
    func file() async throws {
        let folder = try ScratchFolder()
        let page = folder.url("site/index.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.page.utf8).write(to: page)
        let run = try await FeedProcess.run(["scrape", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        let site = page.deletingLastPathComponent().absoluteURL
        let videos = try Self.videos(run)
        #expect(videos.map { $0["video"] as? String } == [site.appendingPathComponent("clips/one.mp4").absoluteString,
                                                          "https://cdn.example.com/og.mp4",
                                                          site.appendingPathComponent("clips/two.mp4").absoluteString,
                                                          "file:///abs/three.webm"])
        #expect(videos[2]["thumbnail"] as? String == site.appendingPathComponent("posters/two.jpg").absoluteString)
        #expect(videos.allSatisfy { $0["description"] as? String == "Clips" })
        let again = try Self.videos(try await FeedProcess.run(["scrape", page.path, "--ndjson"]).ndjsonAsFeed())
        #expect(again.map { $0["id"] as? String } == videos.map { $0["id"] as? String })

        // `feed scrape page.html | feed list --feed -`
        let listed = try await FeedProcess.run(["list", "--feed", "-", "--json"], stdin: Data(run.stdout.utf8))
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try listed.objects().map { $0["id"] as? String } == videos.map { $0["id"] as? String })
    }

    @Test("stdin with --base; a page without videos exits 65 naming it; a missing file 66; a bad --base 64")
    func stdinAndErrors() async throws {
        let run = try await FeedProcess.run(["scrape", "-", "--base", "https://example.com/x/"], stdin: Data(#"<video src="a.mp4">"#.utf8))
        #expect(try Self.videos(run).first?["video"] as? String == "https://example.com/x/a.mp4")
        let none = try await FeedProcess.run(["scrape", "-"], stdin: Data("<p>just text".utf8))
        #expect(none.status == 65 && none.stdout.isEmpty)
        #expect(none.stderr.hasPrefix("feed: <stdin>: no videos found") && none.stderr.split(separator: "\n").count == 1, "\(none.stderr)")
        let missing = try await FeedProcess.run(["scrape", "/nonexistent/page.html"])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent/page.html"))
        #expect(try await FeedProcess.run(["scrape", "-", "--base", "not a url"], stdin: Data()).status == 64)
    }

    @Test("a URL needs --allow-network (64); with it the page is fetched through a redirect and resolved against where it landed; 404 is 66")
    func network() async throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.url("site"), withIntermediateDirectories: true)
        try Data(Self.page.utf8).write(to: folder.url("site/index.html"))
        let server = try await StaticServer(folder.url)
        defer { server.stop() }

        let refused = try await FeedProcess.run(["scrape", server.base + "/site"])
        #expect(refused.status == 64 && refused.stderr.contains("--allow-network") && refused.stdout.isEmpty)
        // http.server answers /site with a 301 to /site/: relative URLs resolve against /site/.
        let run = try await FeedProcess.run(["scrape", server.base + "/site", "--allow-network"])
        #expect(run.status == 0, "\(run.stderr)")
        let videos = try Self.videos(run)
        #expect(videos.first?["video"] as? String == server.base + "/site/clips/one.mp4")
        #expect(videos.last?["video"] as? String == server.base + "/abs/three.webm")
        #expect(videos.first?["username"] as? String == "127.0.0.1")

        let missing = try await FeedProcess.run(["scrape", server.base + "/nothing.html", "--allow-network"])
        #expect(missing.status == 66 && missing.stderr == "feed: \(server.base)/nothing.html: HTTP 404 Not Found\n", "\(missing.stderr)")
        let closed = try await FeedProcess.run(["scrape", "http://127.0.0.1:9/", "--allow-network", "--timeout", "5"])
        #expect(closed.status == 74 && closed.stderr.hasPrefix("feed: http://127.0.0.1:9/: "), "\(closed.stderr)")
    }

    @Test("--timeout covers the whole answer: a page trickled a byte every 0.2 s, never silent long enough for a read timeout, ends at it (74), also a fraction of a second")
    func trickledPage() async throws {
        // Answers every request with a head, then a byte of an endless body every 0.2 s.
        let server = try await ScriptedServer("""
            import socket, sys, threading, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            open(sys.argv[1], "w").write(str(s.getsockname()[1]))
            def trickle(c):
                c.recv(65536)
                c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 1000000\\r\\n\\r\\n")
                try:
                    while True:
                        c.sendall(b"<"); time.sleep(0.2)
                except OSError:
                    pass
            while True:
                c = s.accept()[0]
                threading.Thread(target=trickle, args=(c,), daemon=True).start()
            """)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/page.html"
        for (timeout, shown) in [("2", 2), ("0.5", 1)] {
            let run = try await FeedProcess.run(["scrape", url, "--allow-network", "--timeout", timeout])
            #expect(run.status == 74, "\(run.stderr)")
            #expect(run.stderr == "feed: \(url): no complete answer within \(shown) s\n", "\(run.stderr)")
        }
    }

    @Test("hostile pages: over 16 MiB is refused unread (65); 12 MB of <p> is refused at the parser's 512 MiB (65), never near 1 GB; 100,000 nested <div>s end at --timeout (74)")
    func hostilePages() async throws {
        let home = try RollHome()
        let huge = home.folder.path("huge.html")
        try Data(repeating: UInt8(ascii: " "), count: (16 << 20) + 1).write(to: URL(fileURLWithPath: huge))
        let refused = try await home.run(["scrape", huge])
        #expect(refused.status == 65 && refused.stderr == "feed: \(huge):1:1: larger than 16 MiB: not read as a page\n", "\(refused.stderr)")

        let dense = home.folder.path("dense.html")
        try Data(String(repeating: "<p>", count: 4_000_000).utf8).write(to: URL(fileURLWithPath: dense))
        let (parsed, kilobytes) = try await HostileMediaTests.measured(home, ["scrape", dense])
        #expect(parsed.status == 65 && parsed.stderr.contains("parsing the page needs more than 512 MiB"), "\(parsed.stderr)")
        // Under AddressSanitizer (make sanitize) every block carries redzones and freed ones wait
        // in its quarantine: the peak then says nothing of the parser's cap.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            #expect(kilobytes < 800 << 10, "peak \(kilobytes) KiB")
        }

        let deep = home.folder.path("deep.html")
        try Data((String(repeating: "<div>", count: 100_000) + "<video src=\"a.mp4\">").utf8).write(to: URL(fileURLWithPath: deep))
        let slow = try await home.run(["scrape", deep, "--timeout", "1"])
        #expect(slow.status == 74 && slow.stderr == "feed: \(deep): not read and parsed within 1 s\n", "\(slow.stderr)")
    }
}

extension FeedRun {
    /// NDJSON output turned into `{"videos":[…]}`, to read like the JSON form.
    func ndjsonAsFeed() -> FeedRun {
        var copy = self
        copy.stdout = #"{"videos":["# + stdout.split(separator: "\n").joined(separator: ",") + "]}"
        return copy
    }
}
