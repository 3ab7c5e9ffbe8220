import FeedTestSupport
import Foundation
import Testing

/// The console's social parts, driven in headless Chromium by Scripts/console_social_check.py
/// against a keyed `feed serve`: alice uploads a clip to her roll (tus, with her token) and
/// publishes it; bob, his token in the console's storage, finds her post in the feed, follows
/// her, sees the post under Following, comments and replies in its sheet and opens her profile.
/// What the page showed is checked, and then, from the API's side, what it did.
@Suite("feed serve's console: posts, follows, comments, profiles")
struct ServeConsoleSocialTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/console_social_check.py").path

    /// Uploads `clip` with tus as the token's user (POST /uploads, one PATCH); the recording it made.
    static func upload(_ clip: String, to server: ServeProcess, token: String) async throws -> Int {
        let auth = ["-H", "Authorization: Bearer \(token)"] + ServeUploadTests.tus
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let metadata = "filename " + Data("tacos.mp4".utf8).base64EncodedString()
        let created = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: \(size)", "-H", "Upload-Metadata: \(metadata)"] + auth)
        #expect(created.status == 201, "\(created.text)")
        let upload = String(try #require(created.headers["location"]).dropFirst(server.base.count))
        let patched = try await server.curl(upload, ["-X", "PATCH", "-H", "Content-Type: application/offset+octet-stream",
                                                     "-H", "Upload-Offset: 0", "--data-binary", "@\(clip)"] + auth)
        #expect(patched.status == 204, "\(patched.text)")
        var status: [String: Any] = [:]
        try await waitUntil(timeout: 20, every: 0.1) {
            status = try await server.curl(upload, auth).json()
            return ["done", "failed"].contains(status["state"] as? String)
        }
        return try #require(status["recording_id"] as? Int, "\(status)")
    }

    @Test("bob in the console: alice's post first in the feed, a like, Follow, the post under Following, a comment and a reply in its sheet, her profile says 1 follower; the API agrees")
    func social() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromium), "Debian's chromium (make deps installs it)")
        let home = try RollHome()
        let secret = home.folder.path("secret.key")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: secret))
        // A video of the feed file after the posts: it has no author, so no Follow.
        _ = try TestMedia.seededClip(home.folder.path("file.mp4"), seed: 71, width: 96, height: 160, frames: 10, fps: 10)
        let feed = try home.folder.write("feed.json", #"{"videos":[{"id":1,"username":"ann","description":"a file video","video":"file.mp4"}]}"#)
        let server = try await ServeProcess(["--quiet", "--jwt-secret-file", secret, "--feed", feed], home: home)
        async let aliceToken = ServeAccessTests.token(secret, ["--user", "alice"])
        async let bobToken = ServeAccessTests.token(secret, ["--user", "bob"])
        let (alice, bob) = try await (aliceToken, bobToken)
        let asAlice = ["-H", "Authorization: Bearer \(alice)"], asBob = ["-H", "Authorization: Bearer \(bob)"]

        // alice's own recording, published.
        let clip = try TestMedia.seededClip(home.folder.path("tacos.mp4"), seed: 72, width: 96, height: 160, frames: 10, fps: 10)
        let recording = try await Self.upload(clip, to: server, token: alice)
        let published = try await server.curl("/videos", ["-X", "POST", "-H", "Content-Type: application/json",
                                                          "-d", #"{"recording":\#(recording),"description":"tacos #food"}"#] + asAlice)
        #expect(published.status == 201, "\(published.text)")
        let post = try #require(try published.json()["id"] as? Int)

        let python = try await CrossOriginPage.python.get()
        let comment = "Looks great, alice", reply = "Thanks!"
        let run = try await Tool.run(python, [Self.script, server.base, "--token", bob, "--post", String(post), "--author", "alice",
                                              "--comment", comment, "--reply", reply, "--file-video", "1", "--timeout", "15",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "console_social_check.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")
        #expect(run.status == 0 && (found["errors"] as? [String])?.isEmpty == true, "\(found) \(run.stderr)")

        // What the page showed.
        let shown = found["post"] as? [String: Any]
        #expect(shown?["author"] as? String == "alice" && shown?["follow"] as? String == "Follow", "\(found)")
        let fileVideo = found["file_video"] as? [String: Any]
        #expect(fileVideo?["user"] as? String == "ann" && fileVideo?["author_shown"] as? Bool == false
            && fileVideo?["follow_shown"] as? Bool == false, "\(found)")
        #expect((found["liked"] as? [String: Any])?["count"] as? String == "1", "\(found)")
        #expect((found["followed"] as? [String: Any])?["label"] as? String == "Following", "\(found)")
        let following = found["following"] as? [String: Any]
        #expect(following?["id"] as? String == String(post) && following?["position"] as? String == "1 / 1", "\(found)")
        let posted = try #require(found["comment"] as? [String: Any], "\(found)")
        #expect(posted["text"] as? String == comment && posted["user"] as? String == "bob" && posted["count"] as? String == "1", "\(posted)")
        let replied = try #require(found["reply"] as? [String: Any], "\(found)")
        #expect(replied["text"] as? String == reply && replied["count"] as? String == "2", "\(replied)")
        let profile = try #require(found["profile"] as? [String: Any], "\(found)")
        #expect(profile["handle"] as? String == "@alice" && profile["followers"] as? Int == 1 && profile["following"] as? Int == 0
            && profile["videos"] as? Int == 1 && profile["likes"] as? Int == 1 && profile["follow"] as? String == "Following", "\(profile)")
        #expect(profile["grid"] as? [Int] == [post], "\(profile)")

        // What it did, as the API says.
        let alicesProfile = try await server.curl("/users/alice", asBob).json()
        #expect(alicesProfile["followed"] as? Bool == true && alicesProfile["followers"] as? Int == 1, "\(alicesProfile)")
        let bobFollows = try await server.curl("/users/bob/following", asBob).json()
        #expect((bobFollows["users"] as? [[String: Any]])?.map { $0["name"] as? String } == ["alice"], "\(bobFollows)")
        let comments = try await server.curl("/videos/\(post)/comments", asAlice).json()
        let listed = try #require((comments["comments"] as? [[String: Any]])?.first, "\(comments)")
        #expect(listed["id"] as? Int == posted["id"] as? Int && listed["username"] as? String == "bob"
            && listed["comment"] as? String == comment && listed["replies"] as? Int == 1, "\(comments)")
        let replies = try await server.curl("/comments/\(listed["id"] as? Int ?? 0)/replies", asAlice).json()
        #expect((replies["comments"] as? [[String: Any]])?.map { $0["comment"] as? String } == [reply], "\(replies)")
        let again = try await server.curl("/videos/\(post)", asBob).json()
        #expect(again["comments"] as? Int == 2 && again["likes"] as? Int == 1 && again["liked"] as? Bool == true, "\(again)")
        #expect(await server.stop() == 0)
    }
}
