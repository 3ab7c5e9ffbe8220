import Foundation
import Testing

@Suite("feed roll rm")
struct RollRemoveCommandTests {
    @Test("the row and the file go together")
    func remove() throws {
        let home = try RollHome()
        #expect(try home.run(["roll", "add", home.clip("a.mp4", seed: 1), home.clip("b.mp4", seed: 2)]).status == 0)
        let rows = try home.rows()
        let gone = try #require(rows.first), kept = try #require(rows.last)
        let run = try home.run(["roll", "rm", String(gone["id"] as! Int)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("removed \(gone["id"] as! Int)"))
        #expect(try home.rows().compactMap { $0["id"] as? Int } == [kept["id"] as! Int])
        #expect(!FileManager.default.fileExists(atPath: gone["file"] as! String))
        #expect(home.storedFiles().count == 1 && home.hidden(".trash").isEmpty)
    }

    @Test("an unknown id exits 65 naming it and removes nothing")
    func unknown() throws {
        let home = try RollHome()
        #expect(try home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        let id = try #require(try home.rows().first?["id"] as? Int)
        let run = try home.run(["roll", "rm", String(id), "31337"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("31337"))
        #expect(try home.rows().count == 1 && home.storedFiles().count == 1)
    }
}
