import Foundation
import Testing
import FeedTestSupport

@Suite("feed roll sheet")
struct RollSheetCommandTests {
    @Test("a PNG whose IHDR size follows the columns: 3 clips in 2 and in 3 columns")
    func sheet() async throws {
        let home = try RollHome()
        for seed in 1...3 { #expect(try await home.run(["roll", "add", home.clip("\(seed).mp4", seed: seed)]).status == 0) }
        var sizes: [Int: (width: Int, height: Int)] = [:]
        for columns in [2, 3] {
            let out = home.folder.url.appendingPathComponent("sheet\(columns).png").path
            let run = try await home.run(["roll", "sheet", "-o", out, "--columns", String(columns)])
            #expect(run.status == 0, "\(run.stderr)")
            let size = try #require(ImageHeader.pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))))
            sizes[columns] = size
            #expect(run.stdout.contains("\(size.width)x\(size.height)"))
        }
        // Two columns: 2 rows; three columns: 1 row, one cell wider.
        let two = try #require(sizes[2]), three = try #require(sizes[3])
        let cellWidth = (three.width - two.width)
        #expect(cellWidth > 0 && two.width == 8 + 2 * cellWidth)
        #expect(two.height > three.height && (two.height - 8) == 2 * (three.height - 8))
    }

    @Test("an empty roll exits 65; an unwritable output exits 73; an existing one 73 and kept, unless --force; a folder 73 with no temporary file left")
    func errors() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "sheet", "-o", home.folder.url.appendingPathComponent("s.png").path]).status == 65)
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        #expect(try await home.run(["roll", "sheet", "-o", "/nonexistent/dir/s.png"]).status == 73)
        let existing = try home.folder.write("victim.png", "keep me")
        let refused = try await home.run(["roll", "sheet", "-o", existing])
        #expect(refused.status == 73 && refused.stderr == "feed: \(existing): exists (--force replaces it)\n", "\(refused.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        #expect(try await home.run(["roll", "sheet", "-o", existing, "--force"]).status == 0)
        #expect(ImageHeader.pngSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: existing)))) != nil)
        let folder = home.folder.url.appendingPathComponent("adir").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(try await home.run(["roll", "sheet", "-o", folder, "--force"]).status == 73)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.folder.url.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}
