import Foundation
import Testing

@Suite("feed like / unlike / bookmark / unbookmark")
struct LikeCommandTests {
    @Test("likes and bookmarks persist across processes")
    func persist() throws {
        let home = try RollHome()
        let like = try home.run(["like", "1235", "1450"])
        #expect(like.status == 0, "\(like.stderr)")
        #expect(like.lines == ["liked 1235", "liked 1450"])
        // A new process sees them: liking again changes nothing, unliking does.
        #expect(try home.run(["like", "1235"]).lines == ["1235 was already liked"])
        #expect(try home.run(["unlike", "1235"]).lines == ["unliked 1235"])
        #expect(try home.run(["unlike", "1235"]).lines == ["1235 was not liked"])
        #expect(try home.run(["bookmark", "1783"]).lines == ["bookmarked 1783"])
        #expect(try home.run(["bookmark", "1783"]).lines == ["1783 was already bookmarked"])
        #expect(try home.run(["unbookmark", "1783"]).lines == ["unbookmarked 1783"])
        #expect(try home.run(["like", "1450"]).lines == ["1450 was already liked"])
    }

    @Test("list --liked / --bookmarked filter by the marks and the table shows ♥")
    func listMarked() throws {
        // Given: two liked videos, one bookmarked.
        let home = try RollHome()
        #expect(try home.run(["like", "1450", "1515"]).status == 0)
        #expect(try home.run(["bookmark", "1783", "1515"]).status == 0)
        // When / then: each filter keeps exactly its videos, in feed order, before paging.
        let liked = try home.run(["list", "--liked", "--json"])
        #expect(liked.status == 0, "\(liked.stderr)")
        #expect(try liked.objects().map { $0["id"] as? Int } == [1450, 1515])
        let both = try home.run(["list", "--liked", "--bookmarked", "--json"])
        #expect(try both.objects().map { $0["id"] as? Int } == [1515])
        let paged = try home.run(["list", "--bookmarked", "--limit", "1", "--ndjson"])
        #expect(paged.lines.count == 1 && paged.lines[0].contains("\"id\":1783"))
        let table = try home.run(["list"]).lines
        #expect(table.filter { $0.contains("♥") }.map { $0.prefix(4) } == ["1450", "1515"])
    }

    @Test("list --liked with no roll yet lists nothing and creates no roll")
    func listLikedWithoutRoll() throws {
        let home = try RollHome()
        let run = try home.run(["list", "--liked", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.home.path))
    }

    @Test("no id is a usage error")
    func noID() throws {
        let home = try RollHome()
        #expect(try home.run(["like"]).status == 64)
    }
}
