import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// What `feed live publish` sends, against what ffmpeg's own FLV muxer writes for the same file:
/// the same tag bodies at the same times, track by track.
@Suite("LivePublishSource")
struct LivePublishSourceTests {
    /// One track's messages as (timestamp, body) pairs.
    typealias Track = [(Int64, [UInt8])]

    /// An MP4 with B-frames (decoding times start below zero) and AAC, and the FLV ffmpeg
    /// remuxes it to (its timestamps shifted to start at zero, as every FLV writer does).
    static func clip(in folder: ScratchFolder) async throws -> (mp4: String, flv: String) {
        let mp4 = folder.path("clip.mp4"), flv = folder.path("clip.flv")
        _ = try await LiveMedia.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-f", "lavfi",
                                               "-i", "sine=frequency=440", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
                                               "-pix_fmt", "yuv420p", "-g", "30", "-bf", "2", "-c:a", "aac", mp4], in: folder)
        _ = try await LiveMedia.run("ffmpeg", ["-v", "error", "-y", "-i", mp4, "-c", "copy", "-f", "flv", flv], in: folder)
        return (mp4, flv)
    }

    /// The messages of `source` until it ends, or `limit`, split by track.
    static func messages(_ source: LivePublishSource, limit: Int = 10_000) throws -> (video: Track, audio: Track) {
        var video: Track = [], audio: Track = []
        while video.count + audio.count < limit, let message = try source.next() {
            if message.kind == .video { video.append((Int64(message.timestamp), message.payload)) } else { audio.append((Int64(message.timestamp), message.payload)) }
        }
        return (video, audio)
    }

    @Test("one file: sequence headers first, then each track's frames with ffmpeg's FLV bodies and timestamps (composition offsets of B-frames included), in decoding order")
    func matchesFFmpegFLV() async throws {
        let folder = try ScratchFolder()
        let (mp4, flv) = try await Self.clip(in: folder)
        var reader = try FLVFileReader(path: flv)
        var expectedVideo: Track = [], expectedAudio: Track = []
        while let tag = try reader.next() {
            // The muxer closes with an AVC end-of-sequence tag (packet type 2); a live publisher
            // that goes on to another file or pass sends none.
            if tag.type == FLVTag.videoType, tag.body.count < 2 || tag.body[1] != 2 { expectedVideo.append((tag.timestamp, tag.body)) }
            if tag.type == FLVTag.audioType { expectedAudio.append((tag.timestamp, tag.body)) }
        }
        let source = try LivePublishSource(paths: [mp4], loop: false)
        let first = try #require(try source.next()), second = try #require(try source.next())
        #expect(first.kind == .video && first.isSequenceHeader && second.kind == .audio && second.isSequenceHeader)
        let (video, audio) = try Self.messages(source)
        let sentVideo = [(Int64(first.timestamp), first.payload)] + video, sentAudio = [(Int64(second.timestamp), second.payload)] + audio
        #expect(sentVideo.count == expectedVideo.count && sentAudio.count == expectedAudio.count)
        #expect(sentVideo.map(\.1) == expectedVideo.map(\.1), "video bodies")
        #expect(sentAudio.map(\.1) == expectedAudio.map(\.1), "audio bodies")
        #expect(sentVideo.map(\.0) == expectedVideo.map(\.0), "video times")
        #expect(sentAudio.map(\.0) == expectedAudio.map(\.0), "audio times")
        #expect(source.end >= (expectedVideo.last?.0 ?? 0) && source.end <= 2_100, "ends after its last frame: \(source.end) ms")
    }

    @Test("looping: each pass repeats the frames, its times shifted by where the one before ended, so no track's time goes back")
    func loopsWithContinuousTime() async throws {
        let folder = try ScratchFolder()
        let (mp4, _) = try await Self.clip(in: folder)
        let once = try Self.messages(try LivePublishSource(paths: [mp4], loop: false))
        let single = try LivePublishSource(paths: [mp4], loop: false)
        _ = try Self.messages(single)
        let length = single.end
        let looping = try LivePublishSource(paths: [mp4], loop: true)
        let passes = try Self.messages(looping, limit: 3 * (once.video.count + once.audio.count) + 2)
        let frames = once.video.count - 1  // without the sequence header
        #expect(passes.video.count >= 3 * frames)
        for pass in 1 ..< 3 {
            for index in 0 ..< frames {
                let (time, body) = passes.video[1 + pass * frames + index]
                #expect(body == once.video[1 + index].1 && time == once.video[1 + index].0 + Int64(pass) * length,
                        "pass \(pass) frame \(index): \(time)")
            }
        }
        for track in [passes.video, passes.audio] {
            #expect(zip(track, track.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "times never go back")
        }
    }
}
