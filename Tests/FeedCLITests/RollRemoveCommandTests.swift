import Foundation
import Testing

@Suite("feed roll rm")
struct RollRemoveCommandTests {
    @Test("the row and the file go together")
    func remove() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1), home.clip("b.mp4", seed: 2)]).status == 0)
        let rows = try await home.rows()
        let gone = try #require(rows.first), kept = try #require(rows.last)
        let run = try await home.run(["roll", "rm", String(gone["id"] as! Int)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("removed \(gone["id"] as! Int)"))
        #expect(try await home.rows().compactMap { $0["id"] as? Int } == [kept["id"] as! Int])
        #expect(!FileManager.default.fileExists(atPath: gone["file"] as! String))
        #expect(home.storedFiles().count == 1 && home.hidden(".trash").isEmpty)
    }

    @Test("an unknown id exits 65 naming it and removes nothing")
    func unknown() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        let id = try #require(try await home.rows().first?["id"] as? Int)
        let run = try await home.run(["roll", "rm", String(id), "31337"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("31337"))
        #expect(try await home.rows().count == 1 && home.storedFiles().count == 1)
    }
}
