import Foundation
import Testing

@Suite("feed roll / feed roll list")
struct RollListCommandTests {
    @Test("an empty roll: a header, no rows, exit 0; --json is []")
    func empty() async throws {
        let home = try RollHome()
        let table = try await home.run(["roll"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.lines.count == 1 && table.lines[0].contains("ID"))
        #expect(try await home.run(["roll", "--json"]).objects().isEmpty)
    }

    @Test("--json: newest first with id, file, created_at, duration, width, height, bytes; roll = roll list")
    func json() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1, width: 64, height: 48)
        let b = try home.clip("b.mp4", seed: 2, width: 32, height: 64)
        #expect(try await home.run(["roll", "add", a]).status == 0)
        #expect(try await home.run(["roll", "add", b]).status == 0)
        let rows = try await home.run(["roll", "--json"]).objects()
        #expect(rows.count == 2)
        for key in ["id", "file", "created_at", "duration", "width", "height", "bytes", "sha256"] {
            #expect(rows.allSatisfy { $0[key] != nil }, "\(key)")
        }
        #expect(rows.map { $0["width"] as? Int } == [32, 64])
        let ids = rows.compactMap { $0["id"] as? Int }
        #expect(ids == ids.sorted(by: >))
        for row in rows {
            let file = try #require(row["file"] as? String)
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(file.hasPrefix(home.recordings.path))
            #expect((row["bytes"] as? Int) == (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
        }
        let list = try await home.run(["roll", "list", "--json"])
        #expect(try list.objects().compactMap { $0["id"] as? Int } == ids)
        let ndjson = try await home.run(["roll", "--ndjson"])
        #expect(ndjson.lines.count == 2)
    }

    @Test("--limit and --offset page through the roll; --limit 0 and --all list everything")
    func paging() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "_seed", "120"]).status == 0)
        #expect(try await home.run(["roll", "--json"]).objects().count == 50)
        let all = try await home.run(["roll", "--json", "--limit", "0"]).objects().compactMap { $0["id"] as? Int }
        #expect(all.count == 120)
        #expect(try await home.run(["roll", "--json", "--all"]).objects().count == 120)
        let page = try await home.run(["roll", "--json", "--limit", "10", "--offset", "115"]).objects().compactMap { $0["id"] as? Int }
        #expect(page == Array(all.suffix(5)))
    }

    @Test("a negative limit is a usage error (64)")
    func badLimit() async throws {
        let home = try RollHome()
        let run = try await home.run(["roll", "--limit", "-3"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--limit"))
    }

    @Test("a corrupt roll.sqlite: exit 65 with a clear message, the file unchanged")
    func corrupt() async throws {
        let home = try RollHome()
        try FileManager.default.createDirectory(at: home.home, withIntermediateDirectories: true)
        let database = home.home.appendingPathComponent("roll.sqlite")
        let junk = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: database)
        let run = try await home.run(["roll"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("roll.sqlite") && run.stderr.contains("not a usable roll database"))
        #expect(try Data(contentsOf: database) == junk)
    }
}
