import Testing
@testable import FeedCore

/// FLV tag bodies (RTMP audio and video messages): configurations, frames, refusals of other
/// codecs by name, and hostile bodies refused with typed errors.
@Suite("FLVTag")
struct FLVTagTests {
    @Test("an AVC sequence header gives the configuration, and an AAC one the AudioSpecificConfig")
    func configurations() throws {
        let video = try FLVTag(video: [0x17, 0, 0, 0, 0] + LiveMedia.avcRecord, timestamp: 0)
        #expect(video == .videoConfiguration(try AVCConfiguration(record: LiveMedia.avcRecord)))
        let audio = try FLVTag(audio: [0xAE, 0] + LiveMedia.aacConfig, timestamp: 0)
        #expect(audio == .audioConfiguration(try AACConfiguration(config: LiveMedia.aacConfig)))
    }

    @Test("a video frame keeps its time, key flag and signed 24-bit composition offset; an audio frame is always a key frame")
    func frames() throws {
        let key = try FLVTag(video: [0x17, 1, 0x00, 0x00, 0x43, 0, 0, 0, 1, 0x65], timestamp: 1234)
        #expect(key == .sample(LiveSample(track: .video, decodeTime: 1234, compositionOffset: 67, isKeyFrame: true,
                                          payload: [0, 0, 0, 1, 0x65])))
        let inter = try FLVTag(video: [0x27, 1, 0xFF, 0xFF, 0xDF, 0, 0, 0, 1, 0x41], timestamp: 5)
        #expect(inter == .sample(LiveSample(track: .video, decodeTime: 5, compositionOffset: -33, isKeyFrame: false,
                                            payload: [0, 0, 0, 1, 0x41])))
        let audio = try FLVTag(audio: [0xAF, 1, 0x21, 0x10], timestamp: 23)
        #expect(audio == .sample(LiveSample(track: .audio, decodeTime: 23, isKeyFrame: true, payload: [0x21, 0x10])))
    }

    @Test("end of sequence and video info frames carry nothing to package; script data is no media")
    func nothing() throws {
        #expect(try FLVTag(video: [0x17, 2, 0, 0, 0], timestamp: 0) == .endOfSequence)
        #expect(try FLVTag(video: [0x57, 0], timestamp: 0) == .endOfSequence)
        #expect(try FLVTag(type: FLVTag.scriptType, body: [2, 0, 10], timestamp: 0) == nil)
    }

    @Test("other codecs are refused with their name", arguments: [
        ([0x22, 0], LiveSample.Track.video, "Sorenson H.263"),
        ([0x14, 0], .video, "On2 VP6"),
        ([0x1C, 0], .video, "HEVC"),
        ([0x90, 0x68, 0x76, 0x63, 0x31], .video, "HEVC (hvc1)"),
        ([0x90, 0x61, 0x76, 0x30, 0x31], .video, "AV1 (av01)"),
        ([0x2F, 0], .audio, "MP3"),
        ([0xBF, 0], .audio, "Speex"),
        ([0x3F, 0], .audio, "Linear PCM"),
        ([0x90, 0x4F, 0x70, 0x75, 0x73], .audio, "enhanced RTMP Opus"),
    ] as [([UInt8], LiveSample.Track, String)])
    func refusals(body: [UInt8], track: LiveSample.Track, name: String) {
        #expect(throws: LivePackagingError.unsupportedCodec(track: track, codec: name)) {
            track == .video ? try FLVTag(video: body, timestamp: 0) : try FLVTag(audio: body, timestamp: 0)
        }
        let message = LivePackagingError.unsupportedCodec(track: track, codec: name).description
        #expect(message.contains(name) && message.contains("\(track)"))
    }

    @Test("bodies cut short are refused as truncated", arguments: [
        ([], LiveSample.Track.video), ([0x17], .video), ([0x17, 1, 0], .video), ([0x17, 1, 0, 0, 0], .video),
        ([], .audio), ([0xAF], .audio), ([0xAF, 1], .audio),
    ] as [([UInt8], LiveSample.Track)])
    func truncated(body: [UInt8], track: LiveSample.Track) {
        do throws(LivePackagingError) {
            _ = track == .video ? try FLVTag(video: body, timestamp: 0) : try FLVTag(audio: body, timestamp: 0)
            Issue.record("\(body) was read")
        } catch {
            guard case .truncated = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("thousands of random bodies behind AVC and AAC headers give a tag or a typed error, never a crash")
    func hostile() {
        var random = LiveMedia.Random(state: 42)
        for index in 0 ..< 4000 {
            let noise = random.bytes(index % 64)
            let headers: [[UInt8]] = [[0x17, 0, 0, 0, 0], [0x17, 1], [0x27, UInt8(index % 4)], [0xAF, 0], [0xAF, UInt8(index % 3)]]
            let header = headers[index % headers.count]
            // Typed throws: anything but a LivePackagingError would not compile, and a crash ends the run.
            _ = try? FLVTag(type: header[0] == 0xAF ? FLVTag.audioType : FLVTag.videoType, body: header + noise, timestamp: 0)
        }
    }
}
