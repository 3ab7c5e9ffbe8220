import Foundation
import Testing
import FeedTestSupport

@Suite("feed comments")
struct CommentsCommandTests {
    @Test func countPrintsTheFirstComments() async throws {
        let run = try await FeedProcess.run(["comments", "--count", "3"])

        #expect(run.status == 0)
        #expect(run.lines.count == 3)
        #expect(run.lines.first?.hasPrefix("jnaisbitt0: ") == true)
        #expect(run.lines.allSatisfy { $0.contains(": ") })
    }

    @Test func jsonIsAllFifteenComments() async throws {
        let comments = try await FeedProcess.run(["comments", "--json"]).objects()

        #expect(comments.count == 15)
        #expect(comments.compactMap { $0["id"] as? Int } == Fixture.commentIDs)
        #expect(comments.allSatisfy { $0["username"] is String && $0["comment"] is String })
    }

    @Test func followCyclesEveryIntervalUntilCount() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("comments.json", """
            {"comments": [
              {"id": 1, "username": "ann", "picURL": "https://example.com/a.png", "comment": "first"},
              {"id": 2, "username": "bob", "picURL": "https://example.com/b.png", "comment": "second"}
            ]}
            """)

        let run = try await FeedProcess.run(["comments", "--comments", path, "--follow", "--interval", "0.05", "--count", "5"])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == ["ann: first", "bob: second", "ann: first", "bob: second", "ann: first"])
        #expect(run.seconds >= 0.2, "four pauses of 0.05 s")
    }

    @Test func followOverTheDemoPrintsCountLines() async throws {
        let run = try await FeedProcess.run(["comments", "--follow", "--interval", "0.05", "--count", "4"])

        #expect(run.status == 0)
        #expect(run.lines.count == 4)
    }

    @Test func followWithJSONPrintsOneObjectPerLine() async throws {
        let run = try await FeedProcess.run(["comments", "--follow", "--interval", "0.01", "--count", "2", "--json"])

        let ids = try run.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as? Int }
        #expect(ids == [1, 2])
    }

    @Test func feedWithCommentsIsUsed() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("c.json", #"{"comments": [{"id": 9, "username": "zed", "picURL": "https://e.com/z.png", "comment": "hi"}]}"#)

        let run = try await FeedProcess.run(["comments", "--feed", path])

        #expect(run.lines == ["zed: hi"])
    }

    @Test func commentsFixturePrintsOneLineEach() async throws {
        // Given the comments fixture: escapes, an empty comment, emoji, a tab, a repeated id
        let path = FormatFixture.liverComments.path

        let text = try await FeedProcess.run(["comments", "--comments", path])
        let json = try await FeedProcess.run(["comments", "--comments", path, "--json"])

        // Then each comment is one line with its whitespace folded, and JSON keeps the text
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.lines == [
            "ann: first! 🎉", #"björn: two lines, "quoted", café"#, "cat: ", "dup: the first comment's id again",
            "👍🏽: 👨‍👩‍👧 family emoji and a tab",
        ])
        #expect(text.stderr.contains("warning: comments[3].id: duplicate id 1"), "\(text.stderr)")
        let objects = try json.objects()
        #expect(objects.map { $0["id"].map { "\($0)" } ?? "" } == ["1", "c-2", "3", "1", "4"])
        #expect(objects[1]["comment"] as? String == "two\nlines, \"quoted\", café")
        #expect(objects[4]["comment"] as? String == "👨‍👩‍👧 family emoji and a \t tab")
        #expect(objects.map { $0["pic_url"] is NSNull } == [false, true, true, true, true])
    }

    @Test(arguments: ["0", "-1", "nan"])
    func intervalMustBePositive(interval: String) async throws {
        let run = try await FeedProcess.run(["comments", "--follow", "--interval=\(interval)"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: "))
    }
}

extension CommentsCommandTests {
    @Test("a feed without comments lists none (the demo's do not stand in for them), as GET /comments")
    func feedWithoutComments() async throws {
        let folder = try ScratchFolder()
        let feed = try folder.write("videos.json", #"{"videos": [{"id": 1, "username": "me", "video": "https://x.test/a.mp4"}]}"#)
        let run = try await FeedProcess.run(["comments", "--feed", feed, "--json"], environment: ["FEED_HOME": folder.path("home")])
        let listed = try run.json() as? [Any]
        #expect(run.status == 0 && listed?.isEmpty == true, "\(run.stdout)\(run.stderr)")
    }
}
