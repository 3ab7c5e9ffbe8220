import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll.remove")
struct RollRemoveTests {
    @Test("removing takes the row, the file and its posters, and leaves the trash empty")
    func remove() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try await #require(try roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        let b = try await #require(try roll.add([RollTestSupport.clip(folder.url("b.mp4"), seed: 2).path]).first)
        _ = try roll.thumbnail(of: a)
        let removed = try await roll.remove(ids: [String(a.id)])
        #expect(removed.map(\.id) == [a.id])
        await #expect(try roll.recordings(limit: nil).map(\.id) == [b.id])
        #expect(RollTestSupport.storedFiles(roll) == [b.fileName])
        #expect(RollTestSupport.contents(roll.paths.trash).isEmpty)
        #expect(RollTestSupport.contents(roll.paths.thumbs).isEmpty)
        await #expect(try roll.verify().isClean)
    }

    @Test("an unknown id among known ones removes nothing")
    func unknown() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        await #expect(throws: RollError.unknownID("77")) { try await roll.remove(ids: [String(a.id), "77"]) }
        #expect(try await roll.count() == 1)
        #expect(RollTestSupport.storedFiles(roll) == [a.fileName])
    }

    @Test("a removal whose file is already gone still drops the row")
    func fileAlreadyGone() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let a = try await #require(try roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        try FileManager.default.removeItem(at: roll.url(of: a))
        try await roll.remove(ids: [String(a.id)])
        await #expect(try roll.count() == 0)
    }
}
