import FeedTestSupport
import Foundation
import Testing

/// Live streams end to end: `feed serve --rtmp-port`, ffmpeg publishing over RTMP, players
/// reading the LL-HLS playlist over HTTP.
@Suite("feed serve: live streams")
struct ServeLiveTests {
    /// ffmpeg publishing a test pattern and a tone to `url` at real time for `seconds`.
    static func publisher(_ url: String, seconds: Int, log: URL) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
                             "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "0",
                             "-c:a", "aac", "-f", "flv", url]
        process.standardInput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        return try ChildProcess(process)
    }

    @Test("a publisher with the stream's key goes live: blocking reloads wait for their part, ffprobe reads the playlist; a wrong key and a second publisher are refused with nothing kept; DELETE disconnects the publisher and ends the playlist")
    func publishAndPlay() async throws {
        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let created = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"launch"}"#])
        #expect(created.status == 201 && created.headers["location"] == "/live/1", "\(created.text)")
        let stream = try created.json()
        let key = try #require(stream["stream_key"] as? String)
        let rtmp = try #require(stream["rtmp_url"] as? String)
        #expect(rtmp.hasPrefix("rtmp://127.0.0.1:") && rtmp.hasSuffix("/live") && stream["state"] as? String == "idle", "\(stream)")
        let playback = try #require(stream["playback_url"] as? String)
        #expect(playback == serve.base + "/live/1/index.m3u8")
        let folder = try ScratchFolder()

        // A wrong key: refused at publish, before any media is kept.
        let wrong = try Self.publisher(rtmp + "/sk_" + String(repeating: "0", count: 40), seconds: 1, log: folder.url("wrong.log"))
        #expect(await wrong.exitStatus() != 0)
        #expect(try await serve.curl("/live/1/index.m3u8").status == 404)
        #expect(try await serve.curl("/live/1").json()["state"] as? String == "idle")

        // Long enough to outlast the checks however slow the machine; ended by DELETE below.
        let publisher = try Self.publisher(rtmp + "/" + key, seconds: 600, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        try await waitUntil(timeout: 30, every: 0.2) { try await serve.curl("/live/1").json()["state"] as? String == "active" }

        // As a player starts: the playlist once it lists a part; then a blocking reload two
        // segments on (as far ahead as one may ask), held until that part exists.
        // Counted from the edge the playlist shows, however far a busy machine let the stream run.
        var edge = 0
        try await waitUntil(timeout: 30, every: 0.2) {
            let text = try await serve.curl("/live/1/index.m3u8").text
            let parts = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("#EXT-X-PART:") }
            guard let last = parts.last, let uri = last.split(separator: "\"").dropFirst().first,
                  let msn = Int(uri.dropFirst(5).prefix { $0 != "_" }) else { return false }
            edge = msn
            return true
        }
        let target = edge + 2
        let held = try await serve.curl("/live/1/index.m3u8?_HLS_msn=\(target)&_HLS_part=0")
        #expect(held.status == 200 && held.headers["content-type"] == "application/vnd.apple.mpegurl", "\(held.status) \(held.text)")
        // It holds the part asked for: listed as a part, or (when a loaded machine answered late
        // and the part has aged out of the parts the playlist lists) within its finished segment.
        let holdsPart = held.text.contains(#"URI="part_\#(target)_0.m4s""#) || held.text.contains("\nseg_\(target).m4s\n")
        #expect(holdsPart && held.text.contains("#EXT-X-PRELOAD-HINT:TYPE=PART"), "\(held.text)")
        #expect(held.text.contains("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES") && held.text.contains("#EXT-X-PROGRAM-DATE-TIME:"))
        #expect(try await serve.curl("/live/1/index.m3u8?_HLS_msn=\(target + 60)").status == 400)
        // Every fetch so far came from one client (this address, curl's user agent): one viewer.
        #expect(try await serve.curl("/live/1").json()["viewers"] as? Int == 1)
        let part = try await serve.curl("/live/1/part_\(target)_0.m4s")
        #expect(part.status == 200 && part.headers["cache-control"] == "public, max-age=31536000, immutable" && part.body.count > 100)

        // A second publisher of the same stream is refused while the first is live.
        let second = try Self.publisher(rtmp + "/" + key, seconds: 1, log: folder.url("second.log"))
        #expect(await second.exitStatus() != 0)

        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", playback],
                                       limited: false)
        #expect(probe.status == 0 && probe.stdout.contains("h264,320,240") && probe.stdout.contains("aac"), "\(probe.stdout) \(probe.stderr)")

        // DELETE ends the stream for good and disconnects its publisher.
        #expect(try await serve.curl("/live/1").json()["state"] as? String == "active", "the publisher is still live")
        let deleted = try await serve.curl("/live/1", ["-X", "DELETE"])
        let deletedState = try deleted.json()["state"] as? String
        #expect(deleted.status == 200 && deletedState == "ended", "\(deleted.text)")
        #expect(await publisher.exits(within: 30), "the publisher was not disconnected")
        #expect(try await serve.curl("/live/1").json()["state"] as? String == "ended")
        let ended = try await serve.curl("/live/1/index.m3u8")
        #expect(ended.status == 200 && ended.text.hasSuffix("#EXT-X-ENDLIST\n") && !ended.text.contains("PRELOAD-HINT"), "\(ended.text)")
        #expect(await serve.stop() == 0)
    }

    @Test("hostile publishers (another protocol, a wrong version, a cut handshake, a 16 MB message announced, chunk size 0): each connection closed, the server unharmed")
    func hostilePublishers() async throws {
        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let created = try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"t"}"#]).json()
        let rtmp = try #require(created["rtmp_url"] as? String)
        let port = try #require(rtmp.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        // Each case connects, sends, and reports whether the server closed the connection (it
        // must, within 10 s) after answering at most a handshake.
        let script = """
            import socket, sys
            port = int(sys.argv[1])
            def attempt(name, data, handshake=False):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                if handshake:
                    s.sendall(b"\\x03" + bytes(1536))
                    got = b""
                    while len(got) < 3073:
                        more = s.recv(65536)
                        if not more: break
                        got += more
                    s.sendall(bytes(1536))
                s.sendall(data)
                try:
                    while s.recv(65536): pass
                    print(name, "closed")
                except socket.timeout:
                    print(name, "open")
                s.close()
            attempt("http", b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            attempt("version", b"\\x06" + bytes(1536))
            # A 16 MB command message announced (over the 8 MiB cap).
            attempt("huge", b"\\x03" + bytes(3) + b"\\xff\\xff\\xff" + b"\\x14" + bytes(4), handshake=True)
            # Set Chunk Size 0.
            attempt("chunk0", b"\\x02" + bytes(3) + b"\\x00\\x00\\x04" + b"\\x01" + bytes(4) + bytes(4), handshake=True)
            # A cut handshake: the client goes away half-way.
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"\\x03" + bytes(700))
            s.close()
            print("cut sent")
            """
        let run = try await Tool.run("/usr/bin/python3", ["-c", script, port])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "http closed\nversion closed\nhuge closed\nchunk0 closed\ncut sent\n", "\(run.stdout)")
        #expect(try await serve.curl("/healthz").status == 200)
        #expect(try await serve.curl("/live/1").json()["state"] as? String == "idle")
        #expect(try await serve.curl("/live/1/index.m3u8").status == 404, "nothing was kept")
        #expect(await serve.stop() == 0)
    }

    @Test("feed remote live: create, show, key, list and end through the server print what feed live prints, with the stream's URLs; an unknown id exits 65")
    func remoteLive() async throws {
        let serve = try await ServeProcess()
        func feed(_ words: String...) async throws -> FeedRun { try await FeedProcess.run(Array(words) + ["--server", serve.base]) }
        let created = try await feed("remote", "live", "create", "Friday launch", "--json")
        #expect(created.status == 0, "\(created.stderr)")
        let stream = try #require(try created.json() as? [String: Any])
        #expect(stream["id"] as? Int == 1 && stream["state"] as? String == "idle" && (stream["stream_key"] as? String)?.hasPrefix("sk_") == true)
        #expect(stream["playback_url"] as? String == serve.base + "/live/1/index.m3u8" && stream["rtmp_url"] is NSNull, "no --rtmp-port")
        let shown = try await feed("remote", "live", "show", "1")
        #expect(shown.status == 0 && shown.stdout.contains("title:        Friday launch") && shown.stdout.contains("playback_url:"), "\(shown.stdout)")
        let rekeyed = try #require(try await feed("remote", "live", "key", "1", "--json").json() as? [String: Any])
        #expect(rekeyed["stream_key"] as? String != stream["stream_key"] as? String)
        let listed = try #require(try await feed("remote", "live", "list", "--json").json() as? [[String: Any]])
        #expect(listed.map { $0["id"] as? Int } == [1] && listed[0]["stream_key"] == nil)
        let ended = try #require(try await feed("remote", "live", "end", "1", "--json").json() as? [String: Any])
        #expect(ended["state"] as? String == "ended")
        let again = try await feed("remote", "live", "key", "1")
        #expect(again.status == 65 && again.stderr.contains("live stream 1: the stream has ended"), "\(again.stderr)")
        let unknown = try await feed("remote", "live", "show", "7")
        #expect(unknown.status == 65 && unknown.stderr.contains("live stream 7: no such stream"), "\(unknown.stderr)")
        #expect(await serve.stop() == 0)
    }

    @Test("the room: a watcher's event stream starts with the state and viewers, then carries comments (kept, with ids; the chat so far paged newest first), hearts summed per tick, and the end; an eleventh heart in a second is 429")
    func room() async throws {
        let serve = try await ServeProcess()
        #expect(try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"room"}"#]).status == 201)
        let folder = try ScratchFolder()
        let events = folder.url("events")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "--max-time", "60", serve.base + "/live/1/events"]
        FileManager.default.createFile(atPath: events.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: events)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let watcher = try ChildProcess(process)
        func seen() -> String { String(decoding: (try? Data(contentsOf: events)) ?? Data(), as: UTF8.self) }
        try await waitUntil(timeout: 20, every: 0.1) { seen().contains("event: viewers") }
        #expect(seen().hasPrefix("event: state\ndata: {\"state\":\"idle\"}\n\nevent: viewers\ndata: {\"viewers\":0}\n\n"), "\(seen())")

        let posted = try await serve.curl("/live/1/comments", ["-X", "POST", "-d", #"{"username":"ana","comment":"hello ✓"}"#])
        #expect(posted.status == 201, "\(posted.text)")
        #expect(try posted.json()["id"] as? Int == 1 && (try posted.json()["stream_time"]) is NSNull, "not playing here")
        #expect(try await serve.curl("/live/1/comments", ["-X", "POST", "-d", #"{"username":"bo","comment":"second"}"#]).status == 201)
        #expect(try await serve.curl("/live/1/hearts", ["-X", "POST"]).status == 204)
        #expect(try await serve.curl("/live/1/hearts", ["-X", "POST", "-d", #"{"count":4}"#]).status == 204)
        #expect(try await serve.curl("/live/1/hearts", ["-X", "POST", "-d", #"{"count":11}"#]).status == 400)
        try await waitUntil(timeout: 20, every: 0.1) { seen().contains("event: comment") && seen().contains("event: heart") }
        #expect(seen().contains(#"event: comment\#ndata: {"id":1,"username":"ana","comment":"hello ✓","created_at":"#), "\(seen())")
        // The hearts of one tick come as one event; those of the next tick, if the two were split, as another.
        let hearts = seen().components(separatedBy: "event: heart\ndata: {\"count\":").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        try await waitUntil(timeout: 5, every: 0.1) {
            seen().components(separatedBy: "event: heart\ndata: {\"count\":").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +) == 5
        }
        #expect(!hearts.isEmpty && hearts.allSatisfy { $0 > 0 })

        #expect(try await serve.curl("/live/1", ["-X", "DELETE"]).status == 200)
        try await waitUntil(timeout: 20, every: 0.1) { seen().contains("event: state\ndata: {\"state\":\"ended\"}") }
        #expect(try await serve.curl("/live/1/comments", ["-X", "POST", "-d", #"{"username":"ana","comment":"late"}"#]).status == 409)

        // The chat so far, for a viewer joining late (and after the end): newest first, paged.
        let history = try await serve.curl("/live/1/comments")
        #expect(history.status == 200 && history.text.hasPrefix(#"{"comments":[{"id":2,"username":"bo","comment":"second","#), "\(history.text)")
        #expect(try (history.json()["comments"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [2, 1])
        let older = try await serve.curl("/live/1/comments?limit=1&before=2")
        #expect(try (older.json()["comments"] as? [[String: Any]])?.compactMap { $0["comment"] as? String } == ["hello ✓"], "\(older.text)")
        #expect(try await serve.curl("/live/1/comments?limit=0").status == 400)
        #expect(try await serve.curl("/live/2/comments").status == 404)
        // SIGKILL: a child of the test process may inherit SIGTERM ignored (curl would then run out its --max-time).
        watcher.signal(SIGKILL)
        _ = await watcher.exitStatus()
        #expect(await serve.stop() == 0)
    }

    @Test("a server that stops ends its rooms' event streams (the watcher's response completes) rather than leaving them open")
    func roomEndsAtStop() async throws {
        let serve = try await ServeProcess()
        #expect(try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"t"}"#]).status == 201)
        let folder = try ScratchFolder()
        let events = folder.url("events")
        let watcher = try ServeConsoleLiveTests.watcher(serve.base + "/live/1/events", into: events)
        defer { watcher.signal(SIGKILL) }
        try #require(try await waitUntil(timeout: 20, every: 0.1) {
            String(decoding: (try? Data(contentsOf: events)) ?? Data(), as: UTF8.self).contains("event: viewers")
        })
        #expect(await serve.stop() == 0)
        // curl exits 0 once the chunked response ended properly (18 when it was cut short).
        #expect(await watcher.exits(within: 20))
        #expect(await watcher.exitStatus() == 0)
    }

    @Test("a caller sends at most ten hearts a second: the eleventh in the same second is 429 with Retry-After")
    func heartLimit() async throws {
        let serve = try await ServeProcess()
        #expect(try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"t"}"#]).status == 201)
        // Ten then one more, from one curl (milliseconds apart); a second boundary between them
        // resets the count, so the pair is tried again until it lands in one second (almost
        // always at once).
        let url = serve.base + "/live/1/hearts"
        var answers: [String] = []
        for _ in 0..<5 {
            let run = try await Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}\n", "-X", "POST", "-d", #"{"count":10}"#, url,
                                                          "--next", "-s", "-o", "/dev/null", "-w", "%{http_code} %header{retry-after}\n", "-X", "POST", url],
                                         limited: false)
            answers = run.stdout.split(separator: "\n").map(String.init)
            if answers.last?.hasPrefix("429") == true { break }
        }
        #expect(answers == ["204", "429 1"], "\(answers)")
        #expect(await serve.stop() == 0)
    }
}
