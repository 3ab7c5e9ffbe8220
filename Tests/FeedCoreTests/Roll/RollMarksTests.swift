import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll: likes and bookmarks")
struct RollMarksTests {
    @Test("like, bookmark, unlike: marks change and say whether they changed")
    func marks() throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        #expect(try roll.setMark(.like, videoID: "1235"))
        #expect(try !roll.setMark(.like, videoID: "1235"))
        #expect(try roll.setMark(.bookmark, videoID: "1235"))
        #expect(try roll.marks(videoID: "1235") == [.like, .bookmark])
        #expect(try roll.setMark(.like, false, videoID: "1235"))
        #expect(try !roll.setMark(.like, false, videoID: "1235"))
        #expect(try roll.marks(videoID: "1235") == [.bookmark])
        #expect(try roll.setMark(.bookmark, false, videoID: "1235"))
        #expect(try roll.marks().isEmpty)
    }

    @Test("marks survive closing and reopening the roll; ids come newest mark first")
    func persistence() throws {
        let folder = try ScratchFolder()
        do {
            let roll = try RollTestSupport.roll(in: folder)
            try roll.setMark(.like, videoID: "a")
            Thread.sleep(forTimeInterval: 0.01)
            try roll.setMark(.like, videoID: "b")
            try roll.setMark(.bookmark, videoID: "c")
        }
        let reopened = try RollTestSupport.roll(in: folder)
        #expect(try reopened.videoIDs(marked: .like) == ["b", "a"])
        #expect(try reopened.videoIDs(marked: .bookmark) == ["c"])
    }

    @Test("an empty id is refused")
    func emptyID() throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        #expect(throws: RollError.self) { try roll.setMark(.like, videoID: "") }
    }

    @Test("existingMarks reads marks without creating a roll where there is none")
    func existing() throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        #expect(try Roll.existingMarks(paths: paths).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: paths.home.path))
        try Roll(paths: paths, prober: MediaRecordingProber()).setMark(.like, videoID: "1515")
        #expect(try Roll.existingMarks(paths: paths) == ["1515": [.like]])
    }
}
