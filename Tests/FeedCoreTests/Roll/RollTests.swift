import Foundation
import GRDB
import Testing
import FeedTestSupport
@testable import FeedCore
@testable import FeedSQLite

@Suite("Roll: opening, schema, listing")
struct RollTests {
    @Test("a new home gets roll.sqlite in WAL mode, recordings/ and its hidden folders")
    func createsLayout() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let fm = FileManager.default
        for url in [roll.paths.database, roll.paths.recordings, roll.paths.incoming, roll.paths.trash, roll.paths.thumbs] {
            #expect(fm.fileExists(atPath: url.path), "\(url.path)")
        }
        let mode = try await (roll.catalog as! SQLiteCatalog).reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        #expect(try await roll.count() == 0)
    }

    @Test("a database with a migration this feed does not know is refused and left byte-identical")
    func refusesNewerSchema() async throws {
        let folder = try ScratchFolder()
        let paths = try RollTestSupport.roll(in: folder).paths
        // Given a roll a newer feed migrated further
        let queue = try DatabaseQueue(path: paths.database.path)
        try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9 from the future')") }
        try queue.close()
        let before = try Data(contentsOf: paths.database)
        // When this feed opens it
        #expect {
            try Roll(paths: paths, prober: MediaRecordingProber())
        } throws: { error in
            guard case let .newerSchema(path, unknown) = error as? RollError else { return false }
            return path == paths.database.path && unknown == ["v9 from the future"]
        }
        // Then not a byte changed
        #expect(try Data(contentsOf: paths.database) == before)
    }

    @Test("a file that is not SQLite is refused and left byte-identical", arguments: [
        Array("this is not a database, just some text\n".utf8),
        Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xAB, count: 4080),
    ])
    func refusesCorrupt(bytes: [UInt8]) async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
        try Data(bytes).write(to: paths.database)
        #expect {
            try Roll(paths: paths, prober: MediaRecordingProber())
        } throws: { error in
            guard case let .corruptDatabase(path, _) = error as? RollError else { return false }
            return path == paths.database.path && (error as! RollError).kind == .invalidData
        }
        #expect(try Data(contentsOf: paths.database) == Data(bytes))
    }

    @Test("listing is newest first, paged by limit and offset; nil limit lists all")
    func listing() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try await roll.seed(count: 7)
        let all = try await roll.recordings(limit: nil)
        #expect(all.count == 7)
        #expect(all.map(\.createdAt) == all.map(\.createdAt).sorted(by: >))
        await #expect(try roll.recordings(limit: 3).map(\.id) == Array(all.prefix(3)).map(\.id))
        await #expect(try roll.recordings(limit: 3, offset: 5).map(\.id) == Array(all.suffix(2)).map(\.id))
    }

    @Test("an unknown or malformed id is named in the error, exit 65", arguments: ["999", "abc", "-1", "0"])
    func unknownID(text: String) async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        await #expect(throws: RollError.unknownID(text)) { try await roll.recording(id: text) }
        #expect(RollError.unknownID(text).kind == .notFound)
        #expect(RollError.unknownID(text).description.contains(text))
    }

    @Test("a read-only roll reads without writing a byte; on a fresh home it creates the roll")
    func readOnly() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        let fresh = try Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly)
        await #expect(try fresh.count() == 0)
        try await fresh.seed(count: 3)
        let before = try Data(contentsOf: paths.database)
        let roll = try Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly)
        await #expect(try roll.recordings(limit: nil).count == 3)
        #expect((roll.catalog as! SQLiteCatalog).writer == nil)
        await #expect(throws: RollError.self) { try await roll.setMark(.like, videoID: "1", feed: "<demo>") }
        #expect(try Data(contentsOf: paths.database) == before)
    }

    @Test("two rolls opened on a fresh home at once both work")
    func concurrentOpen() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try await Roll(paths: paths, prober: MediaRecordingProber()).seed(count: 10) }
            }
            try await group.waitForAll()
        }
        await #expect(try Roll(paths: paths, prober: MediaRecordingProber()).count() == 40)
    }
}
