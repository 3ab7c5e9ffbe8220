import FeedTestSupport
import Foundation
import Testing

/// `feed serve` started for real on port 0 and spoken to with curl and ffprobe.
@Suite("feed serve")
struct ServeCommandTests {
    /// A home holding a feed of two local clips (one relative, with a poster) and a remote one.
    static func feedHome() throws -> (RollHome, feed: String, clip: String) {
        let home = try RollHome()
        try FileManager.default.createDirectory(at: home.folder.url("clips"), withIntermediateDirectories: true)
        let clip = try TestMedia.seededClip(home.folder.path("clips/a.mp4"), seed: 1, width: 64, height: 48, frames: 30, fps: 10)
        _ = try TestMedia.seededClip(home.folder.path("b.mp4"), seed: 2, width: 64, height: 48, frames: 10, fps: 10)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: home.folder.url("clips/a.png"))
        let feed = try home.folder.write("feed.json", """
            {"videos": [
              {"id": 1, "username": "ann", "description": "local #one", "likes": 5, "video": "clips/a.mp4", "thumbnail": "clips/a.png"},
              {"id": "two", "username": "bob", "description": "absolute", "likes": 9, "video": "\(home.folder.path("b.mp4"))"},
              {"id": 3, "username": "cy", "description": "remote #one", "video": "https://cdn.example.test/c.mp4"}
            ]}
            """)
        return (home, feed, clip)
    }

    @Test("the first line names the address; /videos is LIVEr's shape with local clips as this server's media URLs")
    func videos() async throws {
        let (home, feed, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed], home: home)

        let reply = try await server.curl("/videos")
        let videos = try #require(try reply.json()["videos"] as? [[String: Any]])
        #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(videos.map { "\($0["id"]!)" } == ["1", "two", "3"])
        #expect(videos[0]["video"] as? String == server.base + "/media/videos/1")
        #expect(videos[0]["thumbnail"] as? String == server.base + "/media/videos/1/thumbnail")
        #expect(videos[1]["video"] as? String == server.base + "/media/videos/two")
        #expect(videos[2]["video"] as? String == "https://cdn.example.test/c.mp4")
        #expect(Set(videos[0].keys) == ["id", "userID", "username", "profilePicURL", "description", "topic", "viewers", "likes", "video", "preload_bytes", "thumbnail"])

        let sorted = try await server.curl("/videos?sort=likes&tag=one&limit=1").json()["videos"] as? [[String: Any]]
        #expect(sorted?.map { "\($0["id"]!)" } == ["1"])
        let one = try await server.curl("/videos/two")
        #expect(try one.json()["username"] as? String == "bob")
        let bad = try await server.curl("/videos?sort=loudness")
        #expect(bad.status == 400)
        #expect(bad.problem?.kind == "usage")
        let missing = try await server.curl("/videos/404")
        #expect(missing.status == 404)
        #expect(missing.problem?.kind == "notFound")
        #expect(await server.stop() == 0)
        #expect(server.stderr.contains("GET /videos 200 "), "\(server.stderr)")
    }

    @Test("media: ranges a-b, a-, -n as 206; 416 with bytes */SIZE; HEAD; ETag and If-None-Match 304; If-Range")
    func ranges() async throws {
        let (home, feed, clip) = try Self.feedHome()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let server = try await ServeProcess(["--feed", feed], home: home)

        let first = try await server.curl("/media/videos/1", ["-r", "0-1"])
        #expect(first.status == 206 && first.body == bytes.prefix(2))
        #expect(first.headers["content-range"] == "bytes 0-1/\(bytes.count)")
        #expect(first.headers["accept-ranges"] == "bytes" && first.headers["content-type"] == "video/mp4")
        let tail = try await server.curl("/media/videos/1", ["-r", "-100"])
        #expect(tail.status == 206 && tail.body == bytes.suffix(100))
        let rest = try await server.curl("/media/videos/1", ["-r", "100-"])
        #expect(rest.status == 206 && rest.body == bytes.dropFirst(100))
        let whole = try await server.curl("/media/videos/1")
        #expect(whole.status == 200 && whole.body == bytes && whole.headers["content-length"] == String(bytes.count))
        let beyond = try await server.curl("/media/videos/1", ["-r", "\(bytes.count)-"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(bytes.count)")
        let several = try await server.curl("/media/videos/1", ["-r", "0-1,5-6"])
        #expect(several.status == 200 && several.body == bytes)
        let head = try await server.curl("/media/videos/1", ["-I"])
        #expect(head.status == 200 && head.headers["content-length"] == String(bytes.count))

        let etag = try #require(whole.headers["etag"])
        #expect(etag.hasPrefix("\"") && whole.headers["last-modified"] != nil)
        #expect(try await server.curl("/media/videos/1", ["-H", "If-None-Match: \(etag)"]).status == 304)
        #expect(try await server.curl("/media/videos/1", ["-H", "If-Modified-Since: \(whole.headers["last-modified"]!)"]).status == 304)
        #expect(try await server.curl("/media/videos/1", ["-r", "0-1", "-H", "If-Range: \(etag)"]).status == 206)
        let stale = try await server.curl("/media/videos/1", ["-r", "0-1", "-H", "If-Range: \"stale\""])
        #expect(stale.status == 200 && stale.body == bytes)
        #expect(try await server.curl("/media/videos/1/thumbnail").headers["content-type"] == "image/png")
        #expect(try await server.curl("/media/videos/3").status == 404)
        await server.stop()
        #expect(server.stderr.contains("HEAD /media/videos/1 200 0 "), "a HEAD sends no body: \(server.stderr)")
    }

    @Test("ffprobe and ffmpeg read a clip over HTTP (they seek with ranges)")
    func ffprobeOverHTTP() async throws {
        let (home, feed, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed], home: home)

        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=width,height,nb_read_frames", "-count_frames",
                                                             "-of", "csv=p=0", server.base + "/media/videos/1"])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "64,48,30")
        let seek = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-ss", "2", "-i", server.base + "/media/videos/1", "-frames:v", "1", "-f", "null", "-"])
        #expect(seek.status == 0, "\(seek.stderr)")
        #expect(server.stderr.contains(" 206 "), "ffmpeg asked for ranges: \(server.stderr)")
        await server.stop()
    }

    @Test("the roll over HTTP: list with a cursor, a recording's media, delete; a like made here is seen by feed list --liked")
    func roll() async throws {
        let (home, feed, clip) = try Self.feedHome()
        for seed in 3...5 {
            let path = try TestMedia.seededClip(home.folder.path("r\(seed).mp4"), seed: seed, width: 32, height: 32, frames: 5, fps: 10)
            #expect(try await home.run(["roll", "add", path]).status == 0)
        }
        _ = clip
        let server = try await ServeProcess(["--feed", feed], home: home)

        let page1 = try await server.curl("/roll?limit=2").json()
        let cursor = try #require(page1["next_cursor"] as? String)
        let page2 = try await server.curl("/roll?limit=2&cursor=\(cursor)").json()
        let ids = ((page1["recordings"] as? [[String: Any]] ?? []) + (page2["recordings"] as? [[String: Any]] ?? [])).compactMap { $0["id"] as? Int }
        #expect(ids == [3, 2, 1])
        #expect(page2["next_cursor"] is NSNull)
        let media = try await server.curl("/media/roll/2", ["-r", "0-3"])
        #expect(media.status == 206 && media.body.count == 4)
        #expect(try await server.curl("/media/roll/2/thumb.jpg").headers["content-type"] == "image/jpeg")
        #expect(try await server.curl("/roll/2", ["-X", "DELETE"]).status == 204)
        #expect(try await server.curl("/roll/2", ["-X", "DELETE"]).status == 404)
        #expect(try await server.curl("/media/roll/2").status == 404)
        #expect(try await server.curl("/roll?cursor=nonsense").status == 400)

        let liked = try await server.curl("/videos/two/like", ["-X", "PUT"])
        let likedNow = try liked.json()["liked"] as? Bool
        #expect(liked.status == 200 && likedNow == true)
        #expect(try await server.curl("/likes").json()["videos"].map { ($0 as? [[String: Any]])?.map { "\($0["id"]!)" } } == ["two"])
        #expect(try await server.curl("/videos/nope/like", ["-X", "PUT"]).status == 404)
        let list = try await home.run(["list", "--feed", feed, "--liked", "--json"])
        #expect(try list.objects().map { "\($0["id"]!)" } == ["two"])
        #expect(try await home.run(["roll", "verify"]).status == 0)
        await server.stop()
    }

    @Test("no request path becomes a file path: traversal attempts get 400 or 404 and nothing outside is read",
          arguments: ["/media/videos/..%2F..%2Fetc%2Fpasswd", "/media/videos/../../etc/passwd", "/media/roll/%2e%2e", "/media/roll/..",
                      "/media/roll/1%00", "/media/roll/%2Fetc%2Fpasswd", "/media//etc/passwd", "/media/videos/%00"])
    func traversal(path: String) async throws {
        let (home, feed, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed, "--quiet"], home: home)

        let reply = try await server.curl(path)
        #expect([400, 404].contains(reply.status), "\(path): \(reply.status)")
        #expect(!reply.text.contains("root:"))
        await server.stop()
    }

    @Test("with a token, every request needs it (401 otherwise, invalid_token when wrong); the document does not")
    func token() async throws {
        let (home, feed, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed, "--token", "s3cret"], home: home)

        let refused = try await server.curl("/videos/1/like", ["-X", "PUT"])
        #expect(refused.status == 401 && refused.headers["www-authenticate"] == "Bearer")
        // A wrong token (here one byte short) is `invalid_token`, as RFC 6750 says.
        let wrong = try await server.curl("/videos/1/like", ["-X", "PUT", "-H", "Authorization: Bearer s3cre"])
        #expect(wrong.status == 401 && wrong.headers["www-authenticate"] == #"Bearer error="invalid_token""#
            && wrong.problem?.detail.contains("a wrong token") == true, "\(wrong.headers)")
        #expect(try await server.curl("/videos/1/like", ["-X", "PUT", "-H", "Authorization: Bearer s3cret"]).status == 200)
        #expect(try await server.curl("/videos").status == 401)
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer s3cret"]).status == 200)
        #expect(try await server.curl("/openapi.yaml").status == 200)
        await server.stop()
    }

    @Test("faults on purpose, with --faults only: status=, delay=, drop-after= (the connection closes mid-body)")
    func faults() async throws {
        let (home, feed, clip) = try Self.feedHome()
        let size = try Data(contentsOf: URL(fileURLWithPath: clip)).count
        let plain = try await ServeProcess(["--feed", feed, "--quiet"], home: home)
        #expect(try await plain.curl("/videos", ["-H", "X-Feed-Fault: status=503"]).status == 200)
        await plain.stop()
        let server = try await ServeProcess(["--feed", feed, "--quiet", "--faults"], home: home)

        let failed = try await server.curl("/media/videos/1", ["-H", "X-Feed-Fault: status=503"])
        #expect(failed.status == 503)
        #expect(failed.problem?.kind == "fault")
        #expect(try failed.json()["title"] as? String == "Service Unavailable")
        let unregistered = try await server.curl("/videos", ["-H", "X-Feed-Fault: status=599"])
        #expect(unregistered.status == 599)
        #expect(try unregistered.json()["title"] as? String == "Server Error")
        let slow = try await Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{time_total}", "-H", "X-Feed-Fault: delay=300",
                                                        server.base + "/videos"])
        #expect((Double(slow.stdout) ?? 0) >= 0.3, "\(slow.stdout)")
        let dropped = try await Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", "-H", "X-Feed-Fault: drop-after=1000",
                                                           server.base + "/media/videos/1"])
        #expect(dropped.status == 18, "curl: partial file (\(dropped.status))")
        #expect(dropped.stdout == "1000" && size > 1000)
        #expect(try await server.curl("/videos", ["-H", "X-Feed-Fault: explode=1"]).status == 400)
        #expect(try await server.curl("/media/videos/1", ["-r", "0-9"]).status == 206)
        await server.stop()
    }

    @Test("/posts: a FeedsApp feed's posts, local media given as this server's /media/posts URLs")
    func posts() async throws {
        let home = try RollHome()
        let clip = try TestMedia.seededClip(home.folder.path("v.mp4"), seed: 3, width: 32, height: 32, frames: 5, fps: 10)
        let feed = try home.folder.write("posts.json", """
            [{"id": "p1", "title": "t", "media": [
                {"id": "m1", "type": "video", "url": "v.mp4"},
                {"id": "m2", "type": "image", "url": "https://i.example.test/x.jpg"}]}]
            """)
        let server = try await ServeProcess(["--feed", feed, "--quiet"], home: home)

        let reply = try await server.curl("/posts")
        let posts = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]], "\(reply.text)")
        let media = try #require(posts.first?["media"] as? [[String: Any]])
        #expect(media.map { $0["url"] as? String } == [server.base + "/media/posts/p1/0", "https://i.example.test/x.jpg"])
        let served = try await server.curl("/media/posts/p1/0")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        #expect(served.status == 200 && served.body == bytes)
        #expect(try await server.curl("/media/posts/p1/1").status == 404)
        #expect(try await server.curl("/media/posts/p1/9").status == 404)
        #expect(try await server.curl("/videos").status == 200)
        let liver = try await ServeProcess(["--quiet"])
        #expect(try await liver.curl("/posts").status == 404)
        await liver.stop()
        await server.stop()
    }

    @Test("binding another address without a key or a token is refused at start: 64")
    func publicBindNeedsAToken() async throws {
        let run = try await FeedProcess.run(["serve", "--bind", "0.0.0.0", "--port", "0"])
        #expect(run.status == 64 && run.stderr.contains("--token"), "\(run.stderr)")
    }

    @Test("comments: LIVEr's shape, and /comments/live sends an event per interval, cycling")
    func comments() async throws {
        let server = try await ServeProcess(["--quiet"])

        let all = try #require(try await server.curl("/comments").json()["comments"] as? [[String: Any]])
        #expect(all.count == 15 && all[0]["username"] as? String == "jnaisbitt0" && all[0]["picURL"] != nil)
        // Counted, not timed: grep ends the stream after four events.
        let head = try await server.curl("/comments/live?interval=0.05", ["-N", "--max-time", "1"])
        #expect(head.headers["content-type"] == "text/event-stream")
        let live = try await Tool.run("/bin/sh", ["-c", "curl -sN '\(server.base)/comments/live?interval=0.05' | grep -m 4 '^data:'"])
        let events = live.stdout.split(separator: "\n")
        #expect(events.count == 4, "\(live.stdout)")
        #expect(events.first?.contains(#""username":"jnaisbitt0""#) == true)
        #expect(Set(events).count == 4, "four different comments, in the feed's order")
        #expect(try await server.curl("/comments/live?interval=0").status == 400)
        await server.stop()
    }

    @Test("POST /comments stores a comment (201): /comments, the live cycle and feed comments show it; bad bodies 400/422")
    func postComment() async throws {
        let server = try await ServeProcess(["--quiet"])

        let before = try #require(try await server.curl("/comments").json()["comments"] as? [[String: Any]])
        let highest = before.compactMap { $0["id"] as? Int }.max() ?? 0
        let posted = try await server.curl("/comments", ["-X", "POST", "-d", #"{"username":"zoë","comment":"hello from curl 🎉"}"#])
        let body = try posted.json()
        #expect(posted.status == 201 && body["id"] as? Int == highest + 1 && body["username"] as? String == "zoë", "\(posted.text)")
        let all = try #require(try await server.curl("/comments").json()["comments"] as? [[String: Any]])
        #expect(all.count == 16 && all.last?["comment"] as? String == "hello from curl 🎉")
        #expect(try await server.curl("/comments", ["-X", "POST", "-d", "nope"]).status == 400)
        #expect(try await server.curl("/comments", ["-X", "POST", "-d", #"{"username":" ","comment":"x"}"#]).status == 422)
        let cli = try await server.home.run(["comments", "--json"])
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]])
        #expect(shown.count == 16 && shown.last?["username"] as? String == "zoë", "\(cli.stdout)")
        await server.stop()
    }

    @Test("Pexels' search and popular, in Pexels' shape with its rate-limit headers")
    func pexels() async throws {
        let (home, feed, _) = try Self.feedHome()
        let server = try await ServeProcess(["--feed", feed, "--quiet"], home: home)

        let reply = try await server.curl("/v1/videos/search?query=one&per_page=1")
        let body = try reply.json()
        #expect(reply.status == 200 && reply.headers["x-ratelimit-limit"] != nil && reply.headers["x-ratelimit-remaining"] != nil)
        #expect(body["page"] as? Int == 1 && body["per_page"] as? Int == 1 && body["total_results"] as? Int == 2)
        #expect((body["next_page"] as? String)?.hasPrefix(server.base + "/v1/videos/search?query=one&page=2") == true)
        #expect(body["prev_page"] == nil)
        let video = try #require((body["videos"] as? [[String: Any]])?.first)
        let file = try #require((video["video_files"] as? [[String: Any]])?.first)
        #expect(file["link"] as? String == server.base + "/media/videos/1" && file["file_type"] as? String == "video/mp4")
        #expect((video["user"] as? [String: Any])?["name"] as? String == "ann")
        // Pexels caps per_page at 80 rather than refusing more; so does feed.
        let capped = try await server.curl("/v1/videos/search?query=one&per_page=500")
        let perPage = try capped.json()["per_page"] as? Int
        #expect(capped.status == 200 && perPage == 80, "\(capped.text)")
        #expect(try await server.curl("/v1/videos/search?query=one&per_page=0").status == 400)
        let popular = try await server.curl("/v1/videos/popular").json()
        #expect((popular["videos"] as? [[String: Any]])?.map { "\($0["id"]!)" }.first == "1" || popular["total_results"] as? Int == 3)
        await server.stop()
    }
}
