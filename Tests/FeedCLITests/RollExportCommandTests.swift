import Foundation
import Testing

@Suite("feed roll export")
struct RollExportCommandTests {
    @Test("the export round-trips through feed list --feed: same ids, file:// video URLs")
    func roundTrip() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1), home.clip("b.mp4", seed: 2)]).status == 0)
        let export = try await home.run(["roll", "export"])
        #expect(export.status == 0, "\(export.stderr)")
        let feedFile = try home.folder.write("roll.json", export.stdout)
        let list = try await home.run(["list", "--feed", feedFile, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let videos = try list.objects()
        let rows = try await home.rows()
        #expect(videos.compactMap { ($0["id"] as? Int) } == rows.compactMap { $0["id"] as? Int })
        #expect(videos.compactMap { $0["video"] as? String } == rows.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).absoluteString } })
        #expect(videos.allSatisfy { ($0["video"] as? String)?.hasPrefix("file:///") == true })
    }
}
