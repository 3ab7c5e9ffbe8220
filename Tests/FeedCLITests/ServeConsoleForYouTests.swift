import FeedTestSupport
import Foundation
import Testing

/// For You in the console, driven in headless Chromium by Scripts/console_foryou_check.py
/// against an open `feed serve`: posts of alice's and bob's (`feed publish`); carol, the user the
/// console acts as (X-Feed-User), presses For You, sees each video's reason, plays the first to
/// its end and says "Not interested" to the second; `feed recs train`; the page reloaded, For You
/// swiped through to its end never shows that video again. What the page showed and sent is
/// checked, and then, from the API's side, what the server made of it.
@Suite("feed serve's console: For You, its reasons, its events, Not interested")
struct ServeConsoleForYouTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/console_foryou_check.py").path

    /// A JSON number as an Int64 (post ids are past 2^32).
    static func id(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    @Test("carol in the console: For You with reasons; the video played to its end counts a view; the one said no to never comes back, through every page after a reload and a trained model, nor on the API's pages")
    func forYou() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrossOriginPage.chromium), "Debian's chromium (make deps installs it)")
        let home = try RollHome()
        // Five posts of 1 s clips: three of alice's, two of bob's.
        var clips: [String] = []
        for index in 0..<5 {
            clips.append(try TestMedia.seededClip(home.folder.path("clip\(index).mp4"), seed: 81 + index, width: 96, height: 160, frames: 10, fps: 10))
        }
        let added = try await home.run(["roll", "add"] + clips + ["--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let recordings = try added.objects().compactMap { $0["id"] as? Int }
        try #require(recordings.count == 5, "\(added.stdout)")
        var posts: [Int64] = []
        for (index, recording) in recordings.enumerated() {
            let (author, tag) = index < 3 ? ("alice", "cats") : ("bob", "dogs")
            let published = try await home.run(["publish", String(recording), "--author", author, "--description", "Clip \(index) #\(tag)", "--json"])
            #expect(published.status == 0, "\(published.stderr)")
            let post = try #require(try published.json() as? [String: Any])
            posts.append(try #require(Self.id(post["id"]), "\(post)"))
        }
        // No feed file's videos: the feed is the posts.
        let feed = try home.folder.write("feed.json", #"{"videos":[]}"#)
        let server = try await ServeProcess(["--quiet", "--feed", feed], home: home)
        let asCarol = ["-H", "X-Feed-User: carol"]

        let python = try await CrossOriginPage.python.get()
        let run = try await Tool.run(python, [Self.script, server.base, "--user", "carol", "--posts", posts.map(String.init).joined(separator: ","),
                                              "--train", FeedProcess.executable.path, "--feed-home", home.home.path, "--timeout", "15",
                                              "--chromium", CrossOriginPage.chromium, "--chromedriver", CrossOriginPage.chromedriver])
        let found = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                 "console_foryou_check.py printed no JSON object (exit \(run.status)): \(run.stdout) \(run.stderr)")
        #expect(run.status == 0 && (found["errors"] as? [String])?.isEmpty == true, "\(found) \(run.stderr)")

        // What the page showed.
        let forYou = try #require(found["for_you"] as? [String: Any], "\(found)")
        #expect(forYou["source"] as? String == "for-you" && forYou["not_interested_shown"] as? Bool == true
            && (forYou["label"] as? String)?.isEmpty == false, "\(forYou)")
        let labels = try #require(found["labels"] as? [[String: Any]], "\(found)")
        #expect(labels.count >= 2 && labels.allSatisfy { ($0["label"] as? String)?.isEmpty == false }, "\(labels)")
        let watched = try #require(Self.id((found["watched"] as? [String: Any])?["id"]), "\(found)")
        let saidNo = try #require(Self.id((found["not_interested"] as? [String: Any])?["id"]), "\(found)")
        #expect(posts.contains(watched) && posts.contains(saidNo) && watched != saidNo, "\(found)")
        #expect((found["trained"] as? [String: Any])?["version"] as? Int == 1, "\(found)")
        let after = try #require(found["after"] as? [String: Any], "\(found)")
        let listed = ((after["ids"] as? [Any]) ?? []).compactMap { Self.id($0) }
        #expect(after["source"] as? String == "for-you" && after["exhausted"] as? Bool == true, "\(after)")
        #expect(Set(listed) == Set(posts).subtracting([saidNo]) && !listed.contains(saidNo), "\(after)")
        #expect((after["model_versions"] as? [Any])?.allSatisfy { $0 as? Int == 1 } == true, "the trained model ranked them: \(after)")

        // What it sent.
        let sent = try #require(found["events"] as? [String: Any], "\(found)")
        let byVideo = try #require(sent["by_video"] as? [String: [String]], "\(sent)")
        #expect(Set(["impression", "complete", "watch"]).isSubset(of: byVideo[String(watched)] ?? []), "\(byVideo)")
        #expect(byVideo[String(saidNo)]?.contains("not_interested") == true, "\(byVideo)")
        #expect((sent["devices"] as? [String])?.isEmpty == true && (sent["keepalive"] as? Int ?? 0) >= 1, "\(sent)")

        // What the server made of it, as the API says: the watch is a view; the video said no to
        // is on none of carol's For You pages (every page of a new session), nor on feed recs'.
        let video = try await server.curl("/videos/\(watched)", asCarol).json()
        #expect((video["views"] as? Int ?? 0) >= 1, "\(video)")
        var served: [Int64] = []
        var cursor = ""
        for _ in 0..<10 {
            let page = try await server.curl("/feed/for-you?limit=2" + (cursor.isEmpty ? "" : "&cursor=\(cursor)"), asCarol).json()
            let ids = ((page["videos"] as? [[String: Any]]) ?? []).compactMap { Self.id($0["id"]) }
            #expect(page["model_version"] as? Int == 1, "\(page)")
            if ids.isEmpty { break }
            served += ids
            cursor = try #require(page["next_cursor"] as? String, "\(page)")
        }
        #expect(Set(served) == Set(posts).subtracting([saidNo]) && !served.contains(saidNo), "\(served)")
        let recs = try await home.run(["recs", "--user", "carol", "--json"])
        #expect(recs.status == 0, "\(recs.stderr)")
        let shown = try #require(try recs.json() as? [String: Any], "\(recs.stdout)")
        let recommended = ((shown["videos"] as? [[String: Any]]) ?? []).compactMap { Self.id($0["id"]) }
        #expect(!recommended.isEmpty && !recommended.contains(saidNo), "\(shown)")
        #expect(await server.stop() == 0)
    }
}
