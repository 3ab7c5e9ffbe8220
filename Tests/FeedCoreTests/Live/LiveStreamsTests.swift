import Foundation
import FeedSQLite
import FeedTestSupport
import Testing
@testable import FeedCore

/// The rules over live streams, once for the CLI and the server.
@Suite("LiveStreams")
struct LiveStreamsTests {
    func make() async throws -> LiveStreams {
        let folder = try ScratchFolder()
        let catalog = try SQLiteCatalog(path: folder.url("c.sqlite").path, setupLock: folder.url("setup.lock"))
        try await catalog.migrate()
        return LiveStreams(store: catalog, clock: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    @Test("a new stream is idle with a well-formed key of its own; titles are trimmed and checked")
    func create() async throws {
        let streams = try await make()
        let a = try await streams.create(title: "  morning show ", owner: "ana")
        let b = try await streams.create(title: "b")
        #expect(a.state == .idle && a.title == "morning show" && a.owner == "ana" && a.createdAt.timeIntervalSince1970 == 1_800_000_000)
        #expect(StreamKey.isWellFormed(a.streamKey) && StreamKey.isWellFormed(b.streamKey) && a.streamKey != b.streamKey)
        // 200 scalars, as openapi.yaml's maxLength counts; 101 thumbs with a skin tone are 202.
        #expect(try await streams.create(title: String(repeating: "👍🏽", count: 100)).title.unicodeScalars.count == 200)
        for bad in ["", "   ", String(repeating: "x", count: 201), String(repeating: "👍🏽", count: 101), "a\u{7}b"] {
            await #expect(throws: LiveError.self) { _ = try await streams.create(title: bad) }
        }
        await #expect(throws: LiveError.notFound(id: 9)) { _ = try await streams.stream(id: 9) }
    }

    @Test("ending is for good and says so again; a new key replaces the old one until the stream ends")
    func endAndRotate() async throws {
        let streams = try await make()
        let made = try await streams.create(title: "t")
        let rotated = try await streams.rotateKey(id: made.id)
        #expect(rotated.streamKey != made.streamKey && StreamKey.isWellFormed(rotated.streamKey))
        #expect(try await streams.store.liveStream(key: made.streamKey) == nil)
        #expect(try await streams.store.liveStream(key: rotated.streamKey)?.id == made.id)
        let ended = try await streams.end(id: made.id)
        #expect(ended.state == .ended && ended.endedAt != nil)
        #expect(try await streams.end(id: made.id) == ended)
        await #expect(throws: LiveError.ended(id: made.id)) { _ = try await streams.rotateKey(id: made.id) }
        #expect(try await streams.page().map(\.id) == [made.id])
    }
}
