import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll and feeds: mark filters, stacked saves")
struct RollFeedTests {
    @Test("videos(of:marked:) keeps feed order and needs every mark asked for, in that feed only")
    func filter() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let demo = FeedLoader.demo(), videos = demo.videos
        try await roll.setMark(.like, videoID: videos[3].id.description, feed: "<demo>")
        try await roll.setMark(.like, videoID: videos[1].id.description, feed: "<demo>")
        try await roll.setMark(.bookmark, videoID: videos[1].id.description, feed: "<demo>")
        try await roll.setMark(.bookmark, videoID: videos[4].id.description, feed: "<demo>")
        await #expect(try roll.videos(of: demo, marked: [.like]).map(\.id) == [videos[1].id, videos[3].id])
        await #expect(try roll.videos(of: demo, marked: [.bookmark]).map(\.id) == [videos[1].id, videos[4].id])
        await #expect(try roll.videos(of: demo, marked: [.like, .bookmark]).map(\.id) == [videos[1].id])
        await #expect(try roll.videos(of: demo, marked: []) == videos)
        var copy = demo
        copy.key = "/elsewhere/videos.json"
        await #expect(try roll.videos(of: copy, marked: [.like]).isEmpty, "the same ids in another feed carry none of these marks")
    }

    @Test("addStacked stores both sources (absolute) and the options as JSON")
    func stacked() async throws {
        struct Options: Encodable { var layout = "vertical"; var audio = "front" }
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let output = try RollTestSupport.clip(folder.url("stacked.mp4"), seed: 9)
        let saved = try await roll.addStacked(output.path, front: folder.url("f.mp4").path, back: folder.url("b.mp4").path, options: Options())
        let read = try await roll.recording(id: saved.id)
        #expect(read.sources == [folder.url("f.mp4").path, folder.url("b.mp4").path])
        #expect(read.stackOptions == #"{"audio":"front","layout":"vertical"}"#)
    }
}
