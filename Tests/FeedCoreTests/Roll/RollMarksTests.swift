import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll: likes and bookmarks")
struct RollMarksTests {
    @Test("like, bookmark, unlike: marks change and say whether they changed")
    func marks() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        #expect(try await roll.setMark(.like, videoID: "1235"))
        #expect(try await !roll.setMark(.like, videoID: "1235"))
        #expect(try await roll.setMark(.bookmark, videoID: "1235"))
        #expect(try await roll.marks(videoID: "1235") == [.like, .bookmark])
        #expect(try await roll.setMark(.like, false, videoID: "1235"))
        #expect(try await !roll.setMark(.like, false, videoID: "1235"))
        #expect(try await roll.marks(videoID: "1235") == [.bookmark])
        #expect(try await roll.setMark(.bookmark, false, videoID: "1235"))
        #expect(try await roll.marks().isEmpty)
    }

    @Test("marks survive closing and reopening the roll; ids come newest mark first")
    func persistence() async throws {
        let folder = try ScratchFolder()
        do {
            let roll = try RollTestSupport.roll(in: folder)
            try await roll.setMark(.like, videoID: "a")
            try await Task.sleep(for: .milliseconds(10))
            try await roll.setMark(.like, videoID: "b")
            try await roll.setMark(.bookmark, videoID: "c")
        }
        let reopened = try RollTestSupport.roll(in: folder)
        await #expect(try reopened.videoIDs(marked: .like) == ["b", "a"])
        await #expect(try reopened.videoIDs(marked: .bookmark) == ["c"])
    }

    @Test("an empty id is refused")
    func emptyID() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        await #expect(throws: RollError.self) { try await roll.setMark(.like, videoID: "") }
    }

    @Test("existingMarks reads marks without creating a roll where there is none")
    func existing() async throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        await #expect(try Roll.existingMarks(paths: paths).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: paths.home.path))
        try await Roll(paths: paths, prober: MediaRecordingProber()).setMark(.like, videoID: "1515")
        await #expect(try Roll.existingMarks(paths: paths) == ["1515": [.like]])
    }
}
