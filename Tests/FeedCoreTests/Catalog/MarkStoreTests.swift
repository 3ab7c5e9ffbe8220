import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``MarkStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("MarkStore (every implementation)")
struct MarkStoreTests {
    @Test("set and unset report whether anything changed; a video with no mark left disappears", arguments: CatalogFactory.all)
    func setAndUnset(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let store = try await factory.make(folder)

        #expect(try await store.setMark(.like, true, videoID: "v1"))
        #expect(try await !store.setMark(.like, true, videoID: "v1"))
        #expect(try await store.setMark(.bookmark, true, videoID: "v1"))
        #expect(try await store.marks() == ["v1": [.like, .bookmark]])
        #expect(try await store.setMark(.like, false, videoID: "v1"))
        #expect(try await !store.setMark(.like, false, videoID: "v1"))
        #expect(try await store.setMark(.bookmark, false, videoID: "v1"))
        #expect(try await store.marks().isEmpty)
        #expect(try await !store.setMark(.like, false, videoID: "never"))
    }

    @Test("ids carrying a mark come most recently marked first", arguments: CatalogFactory.all)
    func order(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let clock = ManualWallClock()
        let store = try await factory.make(folder, clock: clock)
        for id in ["a", "b", "c"] {
            _ = try await store.setMark(.like, true, videoID: id)
            clock.advance(by: 1)
        }
        _ = try await store.setMark(.bookmark, true, videoID: "a")

        #expect(try await store.videoIDs(marked: .like) == ["c", "b", "a"])
        #expect(try await store.videoIDs(marked: .bookmark) == ["a"])
    }
}
