import FeedClient
import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// `GET /comments/live` with more stored comments than a stream reads at a time: the cycle goes
/// through the feed's, then every stored one in order, page after page, then starts again.
@Suite("feed serve: the live comment cycle")
struct ServeLiveCommentsTests {
    @Test("feed comments, then 110 stored ones across two pages in posting order, then the feed's again")
    func cyclesThroughPages() async throws {
        let server = try await ServeProcess(["--quiet"])
        // The feed's own comments, in order, before anything is posted.
        let feed = try #require(try await server.curl("/comments").json()["comments"] as? [[String: Any]])
        let feedNames = feed.compactMap { $0["username"] as? String }
        #expect(!feedNames.isEmpty)
        let remote = try RemoteServer(url: server.base, token: nil)
        do {
            for n in 1...110 {
                _ = try await remote.client.api.postComment(body: .json(.init(username: "u\(n)", comment: "c\(n)"))).created
            }
        } catch {
            await remote.shutdown()
            throw error
        }
        await remote.shutdown()
        // Counted, not timed: grep ends the stream after as many events as the test reads.
        let count = feedNames.count + 110 + 2
        let run = try await Tool.run("/bin/sh", ["-c", "curl -sN '\(server.base)/comments/live?interval=0.05' | grep -m \(count) '^data:'"])
        let names = run.stdout.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst("data: ".count).utf8)) as? [String: Any]
            return object?["username"] as? String ?? "?"
        }
        let expected = feedNames + (1...110).map { "u\($0)" } + feedNames.prefix(2)
        #expect(names == expected, "\(names)")
        await server.stop()
    }

    @Test("a feed with no comments: the stream opens at once, says it waits, and carries the first comment posted")
    func waitsForTheFirstComment() async throws {
        let home = try RollHome()
        let feed = try home.folder.write("feed.json", #"{"videos": [{"id": 1, "username": "ann", "video": "https://cdn.example.test/a.mp4"}]}"#)
        let server = try await ServeProcess(["--quiet", "--feed", feed], home: home)
        let out = home.folder.url("live.out")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "30", server.base + "/comments/live?interval=0.05"]
        process.standardOutput = try FileHandle(forWritingTo: out)
        let stream = try ChildProcess(process)
        let text = { String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self) }
        try await waitUntil(timeout: 10) { text().contains(": waiting for a comment") || stream.hasExited }
        #expect(text().hasPrefix(": waiting for a comment\n\n"), "\(text())")
        let posted = try await server.curl("/comments", ["-X", "POST", "-H", "Content-Type: application/json",
                                                        "-d", #"{"username":"zoe","comment":"first!"}"#])
        #expect(posted.status == 201)
        try await waitUntil(timeout: 10) { text().contains("event: comment") || stream.hasExited }
        #expect(text().contains(#""username":"zoe""#) && text().contains("first!"), "\(text())")
        await stream.stop(SIGTERM, timeout: 5)
        #expect(await server.stop() == 0)
    }
}
