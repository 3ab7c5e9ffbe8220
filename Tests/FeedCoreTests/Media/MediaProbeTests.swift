import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

@Suite("MediaProbe", .offThePool)
struct MediaProbeTests {
    @Test("probe reports container, codecs, sizes, rotation, rate, audio and bytes")
    func fields() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("p.mp4"), width: 48, height: 64, fps: 24, frames: 24,
                                       audio: AudioFormat(sampleRate: 44100, channels: 1), rotation: 90, codec: .hevc)

        let info = try MediaProbe.probe(path: path)

        #expect(info.container == "mp4")
        #expect(info.videoCodec == "hevc")
        #expect(info.codedWidth == 64 && info.codedHeight == 48)
        #expect(info.displayWidth == 48 && info.displayHeight == 64)
        #expect(info.rotation == 90)
        #expect(abs(info.fps - 24) < 0.01)
        #expect(!info.variableFrameRate)
        #expect(abs(info.duration - 1.0) < 0.1)
        #expect(info.audioCodec == "aac" && info.audioSampleRate == 44100 && info.audioChannels == 1)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64
        #expect(info.bytes == size)
    }

    @Test("MediaInfo encodes to JSON with stable field names")
    func json() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("p.mp4"), frames: 3)

        let data = try JSONEncoder().encode(try MediaProbe.probe(path: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        for key in ["container", "duration", "videoCodec", "codedWidth", "codedHeight", "displayWidth", "displayHeight",
                    "rotation", "fps", "variableFrameRate", "audioCodec", "audioSampleRate", "audioChannels", "bytes"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(try JSONDecoder().decode(MediaInfo.self, from: data) == (try MediaProbe.probe(path: path)))
    }
}
