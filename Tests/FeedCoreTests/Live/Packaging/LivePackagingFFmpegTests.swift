import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// End to end on real media: ffmpeg writes an FLV as a publisher would send it, FLVFileReader,
/// FLVTag and LiveSegmenter turn it into init.mp4, parts, segments and an LL-HLS playlist, and
/// ffmpeg and ffprobe read that back.
@Suite("Live packaging of real FLV, read back by ffmpeg")
struct LivePackagingFFmpegTests {
    /// The hash column of `ffmpeg -f framemd5` over the video of `input`: one per decoded frame.
    static func frameHashes(_ input: String, in folder: ScratchFolder) async throws -> [String] {
        let text = try await LiveMedia.run("ffmpeg", ["-v", "error", "-i", input, "-map", "0:v", "-fps_mode", "passthrough",
                                                      "-f", "framemd5", "-"], in: folder)
        return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// How many samples (per channel) the audio of `input` decodes to.
    static func audioSamples(_ input: String, channels: Int, in folder: ScratchFolder) async throws -> Int {
        let output = folder.path(UUID().uuidString + ".pcm")
        _ = try await LiveMedia.run("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-c:a", "pcm_s16le", "-f", "s16le", output],
                                    in: folder)
        let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0
        return size / 2 / channels
    }

    /// The streams ffprobe finds in `input`, `codec,width,height` (`aac` for sound).
    static func streams(_ input: String, in folder: ScratchFolder) async throws -> Set<String> {
        let text = try await LiveMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                                       input], in: folder)
        // HLS input lists each stream twice: once more under its program.
        return Set(text.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    }

    @Test("ffprobe reads the playlist, the video decodes to the very frames of the FLV, the audio to as many samples give or take a frame",
          arguments: [LiveMedia.Variant.plain, .bFrames, .videoOnly, .audioOnly])
    func decodesLikeTheSource(variant: LiveMedia.Variant) async throws {
        // Given an FLV as a publisher sends it, packaged.
        let folder = try ScratchFolder()
        let flv = try await LiveMedia.flv(variant, in: folder)
        let directory = folder.path("hls")
        let packaged = try await offThePool { try LiveMedia.package(flv: flv, into: directory) }
        let playlist = directory + "/playlist.m3u8"
        #expect(packaged.playlist.hasSuffix("#EXT-X-ENDLIST\n"))

        // When ffprobe reads the playlist, then it finds the tracks with their sizes.
        let streams = try await Self.streams(playlist, in: folder)
        var expected: Set<String> = []
        if variant.hasVideo { expected.insert("h264,320,240") }
        if variant.hasAudio { expected.insert("aac") }
        #expect(streams == expected)

        // When both are decoded, then the frames are the same, in the same order.
        if variant.hasVideo {
            let source = try await Self.frameHashes(flv, in: folder)
            let live = try await Self.frameHashes(playlist, in: folder)
            #expect(source.count == 120)
            #expect(live == source)
        }
        if variant.hasAudio {
            let source = try await Self.audioSamples(flv, channels: 1, in: folder)
            let live = try await Self.audioSamples(playlist, channels: 1, in: folder)
            #expect(source > 4 * 44_100 - 2048)
            #expect(abs(live - source) <= 1024, "\(live) samples decoded from the playlist, \(source) from the FLV")
        }
    }

    @Test("parts are at most the part target and at least 85% of it unless last or independent, INDEPENDENT is on exactly the parts that start with a key frame, segments start with one and are their parts end to end",
          arguments: [LiveMedia.Variant.plain, .bFrames, .videoOnly, .audioOnly])
    func partsAndSegmentsKeepTheRules(variant: LiveMedia.Variant) async throws {
        let folder = try ScratchFolder()
        let flv = try await LiveMedia.flv(variant, in: folder)
        let options = LiveSegmenterOptions()
        let packaged = try await offThePool { try LiveMedia.package(flv: flv, into: folder.path("hls"), options: options) }
        let videoID: UInt32? = variant.hasVideo ? 1 : nil

        // The playlist's parts, as listed.
        let lines = packaged.playlist.split(whereSeparator: \.isNewline)
        #expect(lines.contains("#EXT-X-PART-INF:PART-TARGET=0.34"))
        #expect(lines.contains("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.02"))
        let listed = lines.filter { $0.hasPrefix("#EXT-X-PART:") }
        // Parts are listed for the segments that end within three target durations of the end.
        let recent = packaged.parts.filter { $0.part.sequence >= packaged.segments.count - 3 }
        #expect(listed.count == recent.count)
        for line in listed {
            let duration = Double(line.split(separator: ",")[0].dropFirst("#EXT-X-PART:DURATION=".count)) ?? .infinity
            #expect(duration <= options.partTarget, "\(line)")
        }

        #expect(packaged.segments.count == 4)
        for (segment, bytes) in packaged.segments {
            let parts = packaged.parts.filter { $0.part.sequence == segment.sequence }
            #expect(parts.map(\.part) == segment.parts)
            #expect(bytes == parts.flatMap(\.bytes))
            #expect(segment.parts.first?.independent == true)
            for (index, (part, partBytes)) in parts.enumerated() {
                let trafs = TrackFragment.all(in: partBytes)
                #expect(trafs.count == 1)   // one moof per part
                let lead = trafs[0].first { $0.trackID == (videoID ?? 1) }
                #expect(lead != nil)
                #expect(part.duration <= options.partTarget || lead?.durations.count == 1)
                if index < parts.count - 1 && !part.independent { #expect(part.duration >= 0.85 * options.partTarget, "\(part)") }
                #expect(part.independent == (lead?.startsWithSync ?? false), "\(part)")
                if let line = listed.first(where: { $0.contains("URI=\"\(part.uri)\"") }) {
                    #expect(line.hasSuffix(",INDEPENDENT=YES") == part.independent, "\(line)")
                }
            }
            if let videoID { #expect(TrackFragment.all(in: bytes).first?.first { $0.trackID == videoID }?.startsWithSync == true) }
        }
    }

    @Test("decode times run on from part to part without gaps, and the B-frame stream keeps its composition offsets")
    func timelineIsContinuous() async throws {
        let folder = try ScratchFolder()
        let flv = try await LiveMedia.flv(.bFrames, in: folder)
        let packaged = try await offThePool { try LiveMedia.package(flv: flv, into: folder.path("hls")) }
        var ends: [UInt32: UInt64] = [:]
        var offsets: [Int32] = []
        for traf in packaged.parts.flatMap({ TrackFragment.all(in: $0.bytes).joined() }) {
            if let end = ends[traf.trackID] { #expect(traf.baseDecodeTime == end, "track \(traf.trackID)") } else {
                #expect(traf.baseDecodeTime == 0 || traf.trackID == 2)
            }
            ends[traf.trackID] = traf.baseDecodeTime + traf.durations.reduce(0) { $0 + UInt64($1) }
            if traf.trackID == 1 { offsets += traf.compositionOffsets }
        }
        #expect(offsets.contains { $0 > 0 })
        #expect(offsets.allSatisfy { $0 >= 0 && $0 % 90 == 0 })
        // Audio frames last 1024 samples, with no millisecond jitter.
        let audio = packaged.parts.flatMap { TrackFragment.all(in: $0.bytes).joined().filter { $0.trackID == 2 } }
        #expect(audio.flatMap(\.durations).allSatisfy { $0 == 1024 })
    }

    @Test("a 1080x1920 portrait stream: the SPS gives 1080 wide (cropped from 1088) by 1920, and so do the init segment and ffprobe")
    func portraitSize() async throws {
        let folder = try ScratchFolder()
        let flv = try await LiveMedia.flv(.portrait, in: folder)
        let directory = folder.path("hls")
        let packaged = try await offThePool { try LiveMedia.package(flv: flv, into: directory) }
        let video = try #require(packaged.segmenter.video)
        #expect(video.width == 1080 && video.height == 1920)
        #expect(video.codecString.hasPrefix("avc1."))
        #expect(try await Self.streams(directory + "/playlist.m3u8", in: folder) == ["h264,1080,1920", "aac"])
    }
}
