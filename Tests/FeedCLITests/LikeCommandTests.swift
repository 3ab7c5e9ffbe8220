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

    @Test("no id is a usage error")
    func noID() throws {
        let home = try RollHome()
        #expect(try home.run(["like"]).status == 64)
    }
}
