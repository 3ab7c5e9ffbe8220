import FeedTestSupport
import Foundation
import Testing

@Suite("feed like / unlike / bookmark / unbookmark")
struct LikeCommandTests {
    @Test("likes and bookmarks persist across processes")
    func persist() async throws {
        let home = try RollHome()
        let like = try await home.run(["like", "1235", "1450"])
        #expect(like.status == 0, "\(like.stderr)")
        #expect(like.lines == ["liked 1235", "liked 1450"])
        // A new process sees them: liking again changes nothing, unliking does.
        #expect(try await home.run(["like", "1235"]).lines == ["1235 was already liked"])
        #expect(try await home.run(["unlike", "1235"]).lines == ["unliked 1235"])
        #expect(try await home.run(["unlike", "1235"]).lines == ["1235 was not liked"])
        #expect(try await home.run(["bookmark", "1783"]).lines == ["bookmarked 1783"])
        #expect(try await home.run(["bookmark", "1783"]).lines == ["1783 was already bookmarked"])
        #expect(try await home.run(["unbookmark", "1783"]).lines == ["unbookmarked 1783"])
        #expect(try await home.run(["like", "1450"]).lines == ["1450 was already liked"])
    }

    @Test("list --liked / --bookmarked filter by the marks and the table shows ♥")
    func listMarked() async throws {
        // Given: two liked videos, one bookmarked.
        let home = try RollHome()
        #expect(try await home.run(["like", "1450", "1515"]).status == 0)
        #expect(try await home.run(["bookmark", "1783", "1515"]).status == 0)
        // When / then: each filter keeps exactly its videos, in feed order, before paging.
        let liked = try await home.run(["list", "--liked", "--json"])
        #expect(liked.status == 0, "\(liked.stderr)")
        #expect(try liked.objects().map { $0["id"] as? Int } == [1450, 1515])
        let both = try await home.run(["list", "--liked", "--bookmarked", "--json"])
        #expect(try both.objects().map { $0["id"] as? Int } == [1515])
        let paged = try await home.run(["list", "--bookmarked", "--limit", "1", "--ndjson"])
        #expect(paged.lines.count == 1 && paged.lines[0].contains("\"id\":1783"))
        let table = try await home.run(["list"]).lines
        #expect(table.filter { $0.contains("♥") }.map { $0.prefix(4) } == ["1450", "1515"])
    }

    @Test("list --liked with no roll yet lists nothing and creates no roll")
    func listLikedWithoutRoll() async throws {
        let home = try RollHome()
        let run = try await home.run(["list", "--liked", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.home.path))
    }

    @Test("no id is a usage error")
    func noID() async throws {
        let home = try RollHome()
        #expect(try await home.run(["like"]).status == 64)
    }
}

extension LikeCommandTests {
    @Test("liking an id the feed does not have exits 65 naming it and marks nothing; unlike takes any id")
    func unknownID() async throws {
        let home = try RollHome()
        let run = try await home.run(["like", "1450", "9999"])
        #expect(run.status == 65 && run.stderr == "feed: <demo>: no video or post has id 9999\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty, "all or nothing: 1450 was not liked either")
        #expect(try await home.run(["list", "--liked", "--json"]).objects().isEmpty)
        #expect(try await home.run(["unlike", "9999"]).lines == ["9999 was not liked"])
    }
}

extension LikeCommandTests {
    @Test("marks are filed per feed file: liking 1450 in one feed leaves 1450 of another unmarked; the same file by another path is the same feed")
    func perFeed() async throws {
        let home = try RollHome()
        let demo = try Data(contentsOf: RepositoryFiles.fixture("videos.json"))
        let one = home.folder.url("one.json"), other = home.folder.url("other.json")
        try demo.write(to: one)
        try demo.write(to: other)
        try FileManager.default.createSymbolicLink(at: home.folder.url("link.json"), withDestinationURL: one)

        #expect(try await home.run(["like", "1450", "--feed", one.path]).lines == ["liked 1450"])
        #expect(try await home.run(["list", "--liked", "--json", "--feed", other.path]).objects().isEmpty)
        #expect(try await home.run(["list", "--liked", "--json"]).objects().isEmpty, "nor the demo feed's")
        let linked = try await home.run(["list", "--liked", "--json", "--feed", home.folder.url("link.json").path])
        #expect(try linked.objects().map { $0["id"] as? Int } == [1450])
        #expect(try await home.run(["like", "1450", "--feed", other.path]).lines == ["liked 1450"])
        #expect(try await home.run(["unlike", "1450"], environment: ["FEED_PATH": one.path]).lines == ["unliked 1450"])
        #expect(try await home.run(["list", "--liked", "--json", "--feed", other.path]).objects().map { $0["id"] as? Int } == [1450])
    }
}
