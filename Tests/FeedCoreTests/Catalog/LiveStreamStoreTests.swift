import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``LiveStreamStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("LiveStreamStore (every implementation)")
struct LiveStreamStoreTests {
    @Test("a stream round-trips every field; it is found by id and by its key's hash, never by another key", arguments: CatalogFactory.all)
    func roundTrip(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let made = LiveStream(title: "launch ✓", streamKey: StreamKey.make(), owner: "ana", createdAt: Date(timeIntervalSince1970: 1_800_000_000.5))
        let stored = try await store.insertLiveStream(made)
        #expect(stored.id == 1)
        var expected = made
        expected.id = 1
        #expect(try await store.liveStream(id: 1) == expected)
        #expect(try await store.liveStream(keyHash: made.keyHash) == expected)
        #expect(try await store.liveStream(key: made.streamKey) == expected)
        #expect(try await store.liveStream(key: StreamKey.make()) == nil)
        #expect(try await store.liveStream(key: "sk_" + String(made.streamKey.dropFirst(3).reversed())) == nil)
        #expect(try await store.liveStream(id: 2) == nil)

        var live = expected
        live.state = .active
        live.wentLiveAt = Date(timeIntervalSince1970: 1_800_000_100.25)
        live.error = "audio: MP3 is not AAC"
        #expect(try await store.updateLiveStream(live, ifState: .idle))
        #expect(try await store.liveStream(id: 1) == live)
    }

    @Test("the room's figures: hearts add up from every server at once, viewers are set; a stream's update leaves both alone", arguments: CatalogFactory.all)
    func figures(factory: CatalogFactory) async throws {
        let (one, two) = try await factory.makePair(try ScratchFolder())
        let stream = try await one.insertLiveStream(LiveStream(title: "t", streamKey: StreamKey.make(), createdAt: Date()))
        #expect(stream.viewers == 0 && stream.hearts == 0)
        await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...10 { group.addTask { try await (n % 2 == 0 ? one : two).addLiveHearts(stream: stream.id, count: n) } }
        }
        try await two.setLiveViewers(stream: stream.id, count: 1234)
        var active = try #require(try await one.liveStream(id: stream.id))
        #expect(active.hearts == 55 && active.viewers == 1234)
        active.state = .active
        active.hearts = 0
        active.viewers = 0
        #expect(try await one.updateLiveStream(active, ifState: .idle))
        let read = try #require(try await two.liveStream(id: stream.id))
        #expect(read.state == .active && read.hearts == 55 && read.viewers == 1234)
        try await one.addLiveHearts(stream: 99, count: 1)   // no such stream: nothing to add to, no error
    }

    @Test("updates are compare-and-set on the state: of two servers accepting one stream, one wins", arguments: CatalogFactory.all)
    func compareAndSet(factory: CatalogFactory) async throws {
        let (one, two) = try await factory.makePair(try ScratchFolder())
        let stream = try await one.insertLiveStream(LiveStream(title: "t", streamKey: StreamKey.make(), createdAt: Date()))
        var active = stream
        active.state = .active
        async let a = one.updateLiveStream(active, ifState: .idle)
        async let b = two.updateLiveStream(active, ifState: .idle)
        let (first, second) = try await (a, b)
        #expect(first != second)
        var ended = active
        ended.state = .ended
        #expect(try await !one.updateLiveStream(ended, ifState: .idle))
        #expect(try await two.updateLiveStream(ended, ifState: .active))
        #expect(try await one.liveStream(id: stream.id)?.state == .ended)
    }

    @Test("pages run newest first below a cursor, and an owner sees only theirs", arguments: CatalogFactory.all)
    func paging(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        for n in 1...5 {
            _ = try await store.insertLiveStream(LiveStream(title: "s\(n)", streamKey: StreamKey.make(), owner: n % 2 == 0 ? "bo" : "ana",
                                                            createdAt: Date()))
        }
        #expect(try await store.liveStreams(before: nil, limit: 2, ownedBy: nil).map(\.id) == [5, 4])
        #expect(try await store.liveStreams(before: 4, limit: 2, ownedBy: nil).map(\.id) == [3, 2])
        #expect(try await store.liveStreams(ownedBy: "ana").map(\.id) == [5, 3, 1])
        #expect(try await store.liveStreams(before: 5, limit: 9, ownedBy: "bo").map(\.id) == [4, 2])
        #expect(try await store.liveStreams().count == 5)
    }

    @Test("live comments round-trip with their stream time, and are read per stream after an id, oldest first", arguments: CatalogFactory.all)
    func comments(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let at = Date(timeIntervalSince1970: 1_800_000_000.5), edge = Date(timeIntervalSince1970: 1_799_999_998.25)
        var ids: [Int64] = []
        for n in 1...5 {
            let posted = try await store.addLiveComment(LiveComment(streamID: n % 2 == 0 ? 2 : 1, username: "u\(n)", text: "c\(n) ✓",
                                                                    createdAt: at, streamTime: n == 1 ? edge : nil, owner: n == 3 ? "ana" : nil))
            ids.append(posted.id)
        }
        #expect(ids == [1, 2, 3, 4, 5])
        let first = try await store.liveComments(stream: 1, after: 0, limit: 10)
        #expect(first.map(\.id) == [1, 3, 5] && first[0] == LiveComment(id: 1, streamID: 1, username: "u1", text: "c1 ✓", createdAt: at, streamTime: edge))
        #expect(first[1].owner == "ana" && first[1].streamTime == nil)
        #expect(try await store.liveComments(stream: 1, after: 3, limit: 10).map(\.id) == [5])
        #expect(try await store.liveComments(stream: 2, after: 0, limit: 1).map(\.id) == [2])
        #expect(try await store.liveComments(stream: 9, after: 0, limit: 10).isEmpty)

        // The chat a late joiner pages back through: newest first, below a cursor.
        #expect(try await store.liveComments(stream: 1, before: nil, limit: 2).map(\.id) == [5, 3])
        #expect(try await store.liveComments(stream: 1, before: 3, limit: 2).map(\.id) == [1])
        #expect(try await store.liveComments(stream: 1, before: nil, limit: 10) == first.reversed())
        #expect(try await store.liveComments(stream: 2, before: 2, limit: 10).isEmpty)
    }
}
