import FeedTestSupport
import Foundation
import Testing

/// The social catalog through real servers and real clients: a tus upload (tuspy) that publishes
/// itself, 1,000 users at once through two servers on one PostgreSQL (Scripts/social_burst.py),
/// the social webhooks at a receiver that checks every signature, and `feed publish`.
@Suite("feed serve: posts, follows and comments over HTTP")
struct ServeSocialTests {
    static let burst = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/social_burst.py").path

    /// A JWT secret file in `home`.
    static func secret(_ home: RollHome) throws -> String {
        let secret = home.folder.path("secret.key")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: secret))
        return secret
    }

    /// Uploads `clip` with tuspy as the token's user, asking in its metadata to be published.
    static func publishByUpload(_ server: ServeProcess, clip: String, token: String, description: String) async throws {
        _ = try await Tuspy.upload(["--file", clip, "--endpoint", server.base + "/uploads", "--metadata", "filename=clip.mp4",
                                    "--metadata", "publish=1", "--metadata", "description=\(description)",
                                    "--header", "Authorization=Bearer \(token)"])
    }

    /// The posts of `GET /videos` (those with an author) as `token` sees them.
    static func posts(_ server: ServeProcess, token: String) async throws -> [[String: Any]] {
        let page = try await server.curl("/videos?limit=50", ["-H", "Authorization: Bearer \(token)"]).json()
        return (page["videos"] as? [[String: Any]] ?? []).filter { $0["author"] != nil }
    }

    @Test("1,000 users like, follow and comment at once through two servers on one PostgreSQL: every count is exact, on both")
    func burstOnTwoServers() async throws {
        guard TestPostgres.url != nil else {
            #expect(!TestPostgres.isRequired, "FEED_REQUIRE_POSTGRES is set but no cluster runs")
            return
        }
        let home = try RollHome()
        let secret = try Self.secret(home)
        let catalog = try await TestPostgres.newDatabase()
        let arguments = ["--quiet", "--jwt-secret-file", secret, "--catalog", catalog, "--jobs", "0"]
        let one = try await ServeProcess(arguments, home: home)
        let two = try await ServeProcess(arguments, home: home)
        let alice = try await ServeAccessTests.token(secret, ["--user", "alice"])
        try await Self.publishByUpload(one, clip: try home.clip("clip.mp4", seed: 61, frames: 10), token: alice, description: "Burst #test")
        let post = try #require(try await Self.posts(two, token: alice).first, "the upload is a post, seen by the other server too")
        let id = try #require((post["id"] as? NSNumber)?.int64Value)
        #expect(post["author"] as? String == "alice" && post["description"] as? String == "Burst #test" && post["hashtags"] as? [String] == ["test"])

        let run = try await Tool.run("/usr/bin/python3", [Self.burst, "--secret-file", secret, "--servers", "\(one.base),\(two.base)", "--post", "\(id)",
                                              "--author", "alice", "--users", "1000"], limited: false)
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        for (phase, status) in [("like", "200"), ("follow", "204"), ("comment", "201")] {
            #expect((found[phase] as? [String: Any])?["statuses"] as? [String: Int] == [status: 1000], "\(phase): \(found[phase] ?? "")")
        }
        for (index, shown) in (found["post"] as? [[String: Any]] ?? []).enumerated() {
            #expect(shown["likes"] as? Int == 1000 && shown["comments"] as? Int == 1000, "server \(index + 1): \(shown)")
        }
        for (index, profile) in (found["profile"] as? [[String: Any]] ?? []).enumerated() {
            #expect(profile["followers"] as? Int == 1000 && profile["likes"] as? Int == 1000 && profile["videos"] as? Int == 1, "server \(index + 1): \(profile)")
        }
        #expect((found["post"] as? [Any])?.count == 2 && (found["profile"] as? [Any])?.count == 2)
        await one.stop()
        await two.stop()
    }

    @Test("the social events reach a receiver signed: video.published (a tus upload), user.followed, comment.created, report.created, video.removed")
    func webhooks() async throws {
        let home = try RollHome()
        let secret = try Self.secret(home)
        let hook = home.folder.path("hook.key"), log = home.folder.path("received.jsonl"), portFile = home.folder.path("port")
        try Data("a-webhook-secret-of-32-bytes-ok!\n".utf8).write(to: URL(fileURLWithPath: hook))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [ServeWebhookTests.receiverScript, "--secret-file", hook, "--log", log, "--port-file", portFile]
        let receiver = try ChildProcess(process)
        try #require(try await waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: portFile) })
        let url = "http://127.0.0.1:\(try String(contentsOfFile: portFile, encoding: .utf8))/hooks"
        let server = try await ServeProcess(["--quiet", "--jwt-secret-file", secret, "--webhook", url, "--webhook-secret-file", hook],
                                            home: home)
        let alice = try await ServeAccessTests.token(secret, ["--user", "alice"])
        let bob = try await ServeAccessTests.token(secret, ["--user", "bob"])
        try await Self.publishByUpload(server, clip: try home.clip("clip.mp4", seed: 62, frames: 10), token: alice, description: "Hooked")
        let id = try #require((try await Self.posts(server, token: bob).first?["id"] as? NSNumber)?.int64Value)
        let as_ = { (token: String) in ["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json"] }
        #expect(try await server.curl("/users/alice/follow", ["-X", "PUT"] + as_(bob)).status == 204)
        #expect(try await server.curl("/videos/\(id)/comments", ["-X", "POST", "--data", #"{"comment":"nice"}"#] + as_(bob)).status == 201)
        #expect(try await server.curl("/videos/\(id)/report", ["-X", "POST", "--data", #"{"reason":"spam"}"#] + as_(bob)).status == 201)
        #expect(try await server.curl("/videos/\(id)", ["-X", "DELETE"] + as_(alice)).status == 204)
        let expected: Set<String> = ["video.published", "user.followed", "comment.created", "report.created", "video.removed"]
        let arrived = try await waitUntil(timeout: 60) {
            Set(ServeWebhookTests.received(log).filter { $0["status"] as? Int == 200 }.compactMap { $0["type"] as? String }).isSuperset(of: expected)
        }
        let lines = ServeWebhookTests.received(log)
        #expect(arrived, "\(lines)")
        #expect(lines.allSatisfy { $0["verified"] as? Bool == true }, "\(lines)")
        await server.stop()
        _ = await receiver.stop(timeout: 5)
    }

    @Test("feed publish and feed unpublish on the roll's catalog: the post is served, its errors exit 65")
    func publishCommand() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", try home.clip("clip.mp4", seed: 63, frames: 10)]).status == 0)
        let ownerless = try await home.run(["publish", "1"])
        #expect(ownerless.status == 65 && ownerless.stderr == "feed: recording 1 has no owner: name the post's author with --author\n", "\(ownerless.stderr)")
        let published = try await home.run(["publish", "1", "--author", "ann", "--description", "Soup #Lunch", "--visibility", "followers", "--json"])
        #expect(published.status == 0, "\(published.stderr)")
        let post = try #require(try published.json() as? [String: Any])
        #expect(post["author"] as? String == "ann" && post["visibility"] as? String == "followers" && post["hashtags"] as? [String] == ["lunch"])
        let id = try #require((post["id"] as? NSNumber)?.int64Value)
        #expect(try await home.run(["publish", "1", "--author", "ann"]).stderr == "feed: recording 1 is published already, as post \(id)\n")
        let long = try await home.run(["publish", "1", "--author", "ann", "--description", String(repeating: "x", count: 2201)])
        #expect(long.status == 65 && long.stderr == "feed: --description is 2201 characters; at most 2200\n", "\(long.stderr)")
        let server = try await ServeProcess(["--quiet"], home: home)
        let shown = try await server.curl("/videos/\(id)", ["-H", "X-Feed-User: ann"]).json()
        #expect(shown["description"] as? String == "Soup #Lunch" && shown["poster_url"] != nil)
        #expect(try await server.curl("/videos/\(id)", ["-H", "X-Feed-User: bob"]).status == 404, "followers only: bob follows nobody")
        #expect(try await server.curl("/media/roll/1/thumb.jpg").status == 200, "the poster was made at publish")
        await server.stop()
        let jobs = try await home.run(["jobs", "list", "--json"])
        #expect(jobs.stdout.contains(#""kind":"hls""#), "the ladder is queued: \(jobs.stdout)")
        #expect(try await home.run(["unpublish", "\(id)"]).status == 0)
        let again = try await home.run(["unpublish", "\(id)"])
        #expect(again.status == 65 && again.stderr == "feed: no post \(id)\n")
    }

    @Test("a live stream created with publish becomes a post once its recording is in the roll")
    func livePublish() async throws {
        let home = try RollHome()
        let folder = try ScratchFolder()
        let serve = try await ServeProcess(["--quiet", "--rtmp-port", "0"], home: home)
        let refused = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json",
                                                     "-d", #"{"title":"Show","publish":true}"#])
        #expect(refused.status == 422 && refused.text.contains("author"), "an open server's stream has no owner: \(refused.text)")
        let stream = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-H", "X-Feed-User: ann",
                                                    "-d", #"{"title":"Show","publish":true,"description":"Live #show"}"#]).json()
        let url = try #require(stream["rtmp_url"] as? String) + "/" + (try #require(stream["stream_key"] as? String))
        let clip = folder.url("live.flv").path
        try await ServeLiveRecordingTests.clip(clip, pattern: "testsrc2", seconds: 2)
        let publisher = try ServeLiveRecordingTests.publish(clip, to: url, log: folder.url("publisher.log"))
        #expect(await publisher.exits(within: 60))
        #expect(try await serve.curl("/live/1", ["-X", "DELETE"]).status == 200)
        var post: [String: Any]?
        let published = try await waitUntil(timeout: 60, every: 0.25) {
            post = try await Self.posts(serve, token: "").first
            return post != nil
        }
        #expect(published && post?["author"] as? String == "ann" && post?["description"] as? String == "Live #show", "\(post ?? [:])")
        #expect(post?["recording"] as? Int == (try await serve.curl("/live/1").json()["recording_id"] as? Int))
        await serve.stop()
    }
}
