import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``MarkStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("MarkStore (every implementation)")
struct MarkStoreTests {
    static let feed = "/srv/feeds/videos.json"

    @Test("set and unset report whether anything changed; a video with no mark left disappears", arguments: CatalogFactory.all)
    func setAndUnset(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let store = try await factory.make(folder)
        let feed = Self.feed

        #expect(try await store.setMark(.like, true, videoID: "v1", feed: feed))
        #expect(try await !store.setMark(.like, true, videoID: "v1", feed: feed))
        #expect(try await store.setMark(.bookmark, true, videoID: "v1", feed: feed))
        #expect(try await store.marks(feed: feed) == ["v1": [.like, .bookmark]])
        #expect(try await store.setMark(.like, false, videoID: "v1", feed: feed))
        #expect(try await !store.setMark(.like, false, videoID: "v1", feed: feed))
        #expect(try await store.setMark(.bookmark, false, videoID: "v1", feed: feed))
        #expect(try await store.marks(feed: feed).isEmpty)
        #expect(try await !store.setMark(.like, false, videoID: "never", feed: feed))
    }

    @Test("each owner has their own marks; the empty owner's (the CLI's) are apart from every user's", arguments: CatalogFactory.all)
    func perOwner(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let store = try await factory.make(folder)
        let feed = Self.feed
        #expect(try await store.setMark(.like, true, videoID: "v1", feed: feed, owner: "alice"))
        #expect(try await store.setMark(.like, true, videoID: "v1", feed: feed, owner: "bob"), "bob's like is his own")
        #expect(try await store.setMark(.bookmark, true, videoID: "v2", feed: feed, owner: "bob"))
        #expect(try await store.marks(feed: feed, owner: "alice") == ["v1": [.like]])
        #expect(try await store.marks(feed: feed, owner: "bob") == ["v1": [.like], "v2": [.bookmark]])
        #expect(try await store.marks(feed: feed).isEmpty, "the CLI's marks are not a user's")
        #expect(try await store.setMark(.like, false, videoID: "v1", feed: feed, owner: "alice"))
        #expect(try await store.videoIDs(marked: .like, feed: feed, owner: "alice").isEmpty)
        #expect(try await store.videoIDs(marked: .like, feed: feed, owner: "bob") == ["v1"], "alice's unlike leaves bob's")
    }

    @Test("ids carrying a mark come most recently marked first", arguments: CatalogFactory.all)
    func order(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let clock = ManualWallClock()
        let store = try await factory.make(folder, clock: clock)
        for id in ["a", "b", "c"] {
            _ = try await store.setMark(.like, true, videoID: id, feed: Self.feed)
            clock.advance(by: 1)
        }
        _ = try await store.setMark(.bookmark, true, videoID: "a", feed: Self.feed)

        #expect(try await store.videoIDs(marked: .like, feed: Self.feed) == ["c", "b", "a"])
        #expect(try await store.videoIDs(marked: .bookmark, feed: Self.feed) == ["a"])
    }

    @Test("marks are filed per feed: liking 100 in one feed leaves 100 of another unmarked", arguments: CatalogFactory.all)
    func perFeed(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let one = "/srv/feeds/one.json", other = "https://example.com/other.json"

        #expect(try await store.setMark(.like, true, videoID: "100", feed: one))
        #expect(try await store.marks(feed: other).isEmpty)
        #expect(try await store.videoIDs(marked: .like, feed: other).isEmpty)
        #expect(try await !store.setMark(.like, false, videoID: "100", feed: other), "nothing to take off in the other feed")
        #expect(try await store.setMark(.like, true, videoID: "100", feed: other))
        #expect(try await store.setMark(.like, false, videoID: "100", feed: one))
        #expect(try await store.marks(feed: one).isEmpty)
        #expect(try await store.marks(feed: other) == ["100": [.like]])
    }

    @Test("unfiled marks (from before marks were filed per feed) count in every feed; taking one off in any feed takes it off",
          arguments: CatalogFactory.all)
    func unfiled(factory: CatalogFactory) async throws {
        let clock = ManualWallClock()
        let store = try await factory.make(try ScratchFolder(), clock: clock)
        let one = "/srv/feeds/one.json", other = "/srv/feeds/other.json"
        #expect(try await store.setMark(.like, true, videoID: "7", feed: ""))
        clock.advance(by: 1)
        #expect(try await store.setMark(.bookmark, true, videoID: "7", feed: one))

        #expect(try await store.marks(feed: one) == ["7": [.like, .bookmark]])
        #expect(try await store.marks(feed: other) == ["7": [.like]])
        #expect(try await !store.setMark(.like, true, videoID: "7", feed: other), "liked already, unfiled")
        #expect(try await store.videoIDs(marked: .like, feed: one) == ["7"])
        #expect(try await store.setMark(.like, false, videoID: "7", feed: other))
        #expect(try await store.marks(feed: one) == ["7": [.bookmark]])
        #expect(try await store.marks(feed: other).isEmpty)
    }
}
