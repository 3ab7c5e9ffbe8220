import Foundation
import GRDB
import Testing
import FeedTestSupport
@testable import FeedCore
@testable import FeedSQLite

@Suite("Roll: likes and bookmarks")
struct RollMarksTests {
    @Test("like, bookmark, unlike: marks change and say whether they changed")
    func marks() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        #expect(try await roll.setMark(.like, videoID: "1235", feed: "<demo>"))
        #expect(try await !roll.setMark(.like, videoID: "1235", feed: "<demo>"))
        #expect(try await roll.setMark(.bookmark, videoID: "1235", feed: "<demo>"))
        #expect(try await roll.marks(videoID: "1235", feed: "<demo>") == [.like, .bookmark])
        #expect(try await roll.setMark(.like, false, videoID: "1235", feed: "<demo>"))
        #expect(try await !roll.setMark(.like, false, videoID: "1235", feed: "<demo>"))
        #expect(try await roll.marks(videoID: "1235", feed: "<demo>") == [.bookmark])
        #expect(try await roll.setMark(.bookmark, false, videoID: "1235", feed: "<demo>"))
        #expect(try await roll.marks(feed: "<demo>").isEmpty)
    }

    @Test("marks survive closing and reopening the roll; ids come newest mark first")
    func persistence() async throws {
        let folder = try ScratchFolder()
        do {
            let roll = try RollTestSupport.roll(in: folder)
            try await roll.setMark(.like, videoID: "a", feed: "<demo>")
            try await Task.sleep(for: .milliseconds(10))
            try await roll.setMark(.like, videoID: "b", feed: "<demo>")
            try await roll.setMark(.bookmark, videoID: "c", feed: "<demo>")
        }
        let reopened = try RollTestSupport.roll(in: folder)
        await #expect(try reopened.videoIDs(marked: .like, feed: "<demo>") == ["b", "a"])
        await #expect(try reopened.videoIDs(marked: .bookmark, feed: "<demo>") == ["c"])
    }

    @Test("an empty id is refused")
    func emptyID() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        await #expect(throws: RollError.self) { try await roll.setMark(.like, videoID: "", feed: "<demo>") }
    }

    @Test("existingMarks reads marks without creating a roll where there is none")
    func existing() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        await #expect(try Roll.existingMarks(paths: paths, feed: "<demo>").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: paths.home.path))
        try await Roll(paths: paths, prober: MediaRecordingProber()).setMark(.like, videoID: "1515", feed: "<demo>")
        await #expect(try Roll.existingMarks(paths: paths, feed: "<demo>") == ["1515": [.like]])
    }

    @Test("a roll from before marks were filed per feed keeps them, unfiled: every feed sees them")
    func migratesUnfiled() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true)
        // Given a roll at the schema before "v6 marks per feed", with a like and a bookmark
        let queue = try DatabaseQueue(path: paths.database.path)
        try SQLiteSchema.migrator.migrate(queue, upTo: "v5 uploads")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO video_mark(video_id, liked_at, bookmarked_at) VALUES ('1450', 1800000000, NULL), ('1515', NULL, 1800000001)")
        }
        try queue.close()
        // When this feed opens it
        let roll = try Roll(paths: paths, prober: MediaRecordingProber())
        // Then both marks count in any feed, and unliking in one takes the like off
        #expect(try await roll.marks(feed: "<demo>") == ["1450": [.like], "1515": [.bookmark]])
        #expect(try await roll.marks(feed: "/any/feed.json") == ["1450": [.like], "1515": [.bookmark]])
        #expect(try await roll.setMark(.like, false, videoID: "1450", feed: "/any/feed.json"))
        #expect(try await roll.marks(feed: "<demo>") == ["1515": [.bookmark]])
    }
}
