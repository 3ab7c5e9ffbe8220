import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``RecordingCatalog``, run against every implementation in ``CatalogFactory/all``.
@Suite("RecordingCatalog (every implementation)")
struct RecordingCatalogTests {
    @Test("an insert returns the row as stored, with a new id, and reads back field for field", arguments: CatalogFactory.all)
    func insertAndFetch(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        let given = CatalogFactory.recording(6)

        let stored = try await catalog.insert(given, refusingDuplicates: true)

        #expect(stored.id > 0)
        var expected = given
        expected.id = stored.id
        #expect(stored == expected)
        #expect(try await catalog.recording(id: stored.id) == expected)
        #expect(try await catalog.recording(id: stored.id + 1000) == nil)
        #expect(try await catalog.count() == 1)
    }

    @Test("ids grow and are never reused after a delete; delete says whether there was a row", arguments: CatalogFactory.all)
    func idsAndDelete(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        let a = try await catalog.insert(CatalogFactory.recording(1), refusingDuplicates: false)
        let b = try await catalog.insert(CatalogFactory.recording(2), refusingDuplicates: false)

        #expect(try await catalog.delete(id: b.id))
        #expect(try await !catalog.delete(id: b.id))
        let c = try await catalog.insert(CatalogFactory.recording(3), refusingDuplicates: false)

        #expect(a.id < b.id && b.id < c.id)
        #expect(try await catalog.count() == 2)
        #expect(try await catalog.recording(id: b.id) == nil)
    }

    @Test("the same hash is refused in the insert's own transaction, or allowed when asked", arguments: CatalogFactory.all)
    func duplicates(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        let first = try await catalog.insert(CatalogFactory.recording(1, sha256: "ab"), refusingDuplicates: true)
        let again = CatalogFactory.recording(2, sha256: "ab")

        await #expect(throws: RollError.duplicate(path: again.originalPath, existingID: first.id)) {
            _ = try await catalog.insert(again, refusingDuplicates: true)
        }
        #expect(try await catalog.recordingID(sha256: "ab") == first.id)
        #expect(try await catalog.recordingID(sha256: "cd") == nil)
        _ = try await catalog.insert(again, refusingDuplicates: false)
        #expect(try await catalog.count() == 2)
    }

    @Test("owners: a page of one owner's rows, paged by cursor; the same bytes of another owner are no duplicate", arguments: CatalogFactory.all)
    func owners(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        var alice: [Int64] = []
        for n in 0..<5 {
            var recording = CatalogFactory.recording(n, createdAt: Double(n))
            recording.owner = n % 2 == 0 ? "alice" : "bob"
            let stored = try await catalog.insert(recording, refusingDuplicates: true)
            #expect(stored.owner == recording.owner)
            if n % 2 == 0 { alice.insert(stored.id, at: 0) }
        }
        _ = try await catalog.insert(CatalogFactory.recording(9, createdAt: 9), refusingDuplicates: true)
        #expect(try await catalog.recordings(after: nil, limit: nil, ownedBy: "alice").map(\.id) == alice)
        let first = try await catalog.recordings(after: nil, limit: 2, ownedBy: "alice")
        let rest = try await catalog.recordings(after: RecordingCursor(after: try #require(first.last)), limit: 9, ownedBy: "alice")
        #expect((first + rest).map(\.id) == alice)
        #expect(try await catalog.recordings(after: nil, limit: nil, ownedBy: "carol").isEmpty)
        #expect(try await catalog.recordings(after: nil, limit: nil).count == 6, "nil: everyone's")
        #expect(try await catalog.recording(id: alice[0])?.owner == "alice")

        // Bob's copy of alice's bytes is his own recording; alice's second copy is a duplicate.
        func copy(_ n: Int, _ owner: String) -> Recording {
            var recording = CatalogFactory.recording(n, sha256: "same")
            recording.owner = owner
            return recording
        }
        let original = try await catalog.insert(copy(20, "alice"), refusingDuplicates: true)
        #expect(try await catalog.insert(copy(21, "bob"), refusingDuplicates: true).id != original.id)
        let again = copy(22, "alice")
        await #expect(throws: RollError.duplicate(path: again.originalPath, existingID: original.id)) {
            _ = try await catalog.insert(again, refusingDuplicates: true)
        }
        #expect(try await catalog.recordingID(sha256: "same", owner: "alice") == original.id)
        #expect(try await catalog.recordingID(sha256: "same") == nil, "none of the server's own")
    }

    @Test("pages come newest first, by created_at then id, and offset paging agrees", arguments: CatalogFactory.all)
    func ordering(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        // Two rows share a created_at: the higher id comes first.
        let times: [Double] = [10, 30, 20, 30, 5]
        var ids: [Int64] = []
        for (n, t) in times.enumerated() {
            ids.append(try await catalog.insert(CatalogFactory.recording(n, createdAt: t), refusingDuplicates: false).id)
        }
        let expected = [ids[3], ids[1], ids[2], ids[0], ids[4]]

        #expect(try await catalog.recordings(after: nil, limit: nil).map(\.id) == expected)
        #expect(try await catalog.recordings(offset: 0, limit: nil).map(\.id) == expected)
        #expect(try await catalog.recordings(offset: 2, limit: 2).map(\.id) == Array(expected[2..<4]))
        var paged: [Int64] = []
        var cursor: RecordingCursor?
        while true {
            let page = try await catalog.recordings(after: cursor, limit: 2)
            if page.isEmpty { break }
            paged += page.map(\.id)
            cursor = RecordingCursor(after: try #require(page.last))
        }
        #expect(paged == expected)
    }

    @Test("a cursor neither repeats nor skips rows while others are added and removed", arguments: CatalogFactory.all)
    func cursorIsStableUnderWrites(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        for n in 0..<10 { _ = try await catalog.insert(CatalogFactory.recording(n), refusingDuplicates: false) }
        let before = try await catalog.recordings(after: nil, limit: nil).map(\.id)

        let first = try await catalog.recordings(after: nil, limit: 4)
        // Meanwhile: a newer recording lands, and one already shown goes.
        _ = try await catalog.insert(CatalogFactory.recording(99), refusingDuplicates: false)
        try await catalog.delete(id: first[1].id)
        var rest: [Int64] = []
        var cursor = RecordingCursor(after: try #require(first.last))
        while case let page = try await catalog.recordings(after: cursor, limit: 3), !page.isEmpty {
            rest += page.map(\.id)
            cursor = RecordingCursor(after: try #require(page.last))
        }

        #expect(first.map(\.id) + rest == before)
    }

    @Test("updateContent changes media, bytes and hash only", arguments: CatalogFactory.all)
    func update(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        var row = try await catalog.insert(CatalogFactory.recording(4), refusingDuplicates: false)
        let original = row
        row.media = RecordingMedia(duration: 9, width: 64, height: 48, fps: 10, videoCodec: "h264", hasAudio: false)
        row.bytes = 77
        row.sha256 = "ff"
        row.title = "not stored"

        #expect(try await catalog.updateContent(row))
        var expected = original
        expected.media = row.media
        expected.bytes = 77
        expected.sha256 = "ff"
        #expect(try await catalog.recording(id: row.id) == expected)
        row.id += 1000
        #expect(try await !catalog.updateContent(row))
    }

    @Test("insertAll adds every row in one go and returns the count", arguments: CatalogFactory.all)
    func insertAll(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        _ = try await catalog.insert(CatalogFactory.recording(0), refusingDuplicates: false)

        let count = try await catalog.insertAll((1...50).map { CatalogFactory.recording($0) })

        #expect(count == 51)
        #expect(try await catalog.recordings(after: nil, limit: 1).first?.fileName == "clip-50.mp4")
    }

    @Test("migrate is idempotent and keeps the rows", arguments: CatalogFactory.all)
    func migrateTwice(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let catalog = try await factory.make(folder)
        _ = try await catalog.insert(CatalogFactory.recording(1), refusingDuplicates: false)

        try await catalog.migrate()
        try await catalog.migrate()

        #expect(try await catalog.count() == 1)
    }
}

@Suite("RecordingCursor")
struct RecordingCursorTests {
    @Test("the text form round-trips exactly and refuses anything else")
    func text() {
        let cursor = RecordingCursor(createdAt: 1_800_000_000.123456789, id: 42)
        #expect(RecordingCursor(cursor.description) == cursor)
        for bad in ["", "42", "x-1", "41d9cc1a1b2c3d4e-0", "41d9cc1a1b2c3d4e--1", "41d9cc1a1b2c3d4e-01", "7ff0000000000000-1", "41d9cc1a1b2c3d4e-1-2"] {
            #expect(RecordingCursor(bad) == nil, "\(bad)")
        }
    }
}
