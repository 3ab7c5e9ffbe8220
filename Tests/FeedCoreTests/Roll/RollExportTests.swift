import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll.exportFeed")
struct RollExportTests {
    @Test("the export loads back through FeedLoader: ids, file URLs, durations and sizes")
    func roundTrip() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path], options: AddOptions(title: "first #roll"))
        try await roll.add([RollTestSupport.clip(folder.url("b.mp4"), seed: 2, width: 32, height: 64).path])
        let recordings = try await roll.recordings(limit: nil)
        let feed = try FeedLoader.load(bytes: try await roll.exportFeed(), source: "export.json")
        #expect(feed.videos.map(\.id.description) == recordings.map { String($0.id) })
        for (video, recording) in zip(feed.videos, recordings) {
            #expect(video.video == roll.url(of: recording))
            #expect(video.video?.isFileURL == true)
            #expect(video.width == recording.media.width && video.height == recording.media.height)
            #expect(video.duration.map { abs($0 - recording.media.duration) < 1e-9 } == true)
        }
        #expect(feed.videos.last?.description == "first #roll")
        #expect(feed.videos.last?.hashtags == ["roll"])
    }

    @Test("an empty roll exports an empty feed")
    func empty() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        #expect(try FeedLoader.load(bytes: await roll.exportFeed(), source: "e.json").videos.isEmpty)
    }
}
