import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("MediaRecordingProber")
struct MediaRecordingProberTests {
    @Test("a clip's facts come from FFmpeg")
    func clip() throws {
        let folder = try ScratchFolder()
        let clip = try RollTestSupport.clip(folder.url("a.mp4"), seed: 1, width: 80, height: 40, frames: 15, fps: 15)
        let media = try MediaRecordingProber().probe(path: clip.path)
        #expect(media.width == 80 && media.height == 40)
        #expect(abs(media.fps - 15) < 0.01)
        #expect(abs(media.duration - 1.0) < 0.15)
        #expect(media.videoCodec == "h264" && !media.hasAudio)
    }

    @Test("text and missing files are refused with the right errors")
    func refusals() throws {
        let folder = try ScratchFolder()
        let text = folder.url("x.mp4")
        try Data("hello".utf8).write(to: text)
        #expect { try MediaRecordingProber().probe(path: text.path) } throws: {
            guard case .notMedia(text.path, _) = $0 as? RollError else { return false }
            return true
        }
        let missing = folder.url("none.mp4").path
        #expect(throws: RollError.missingFile(path: missing)) { try MediaRecordingProber().probe(path: missing) }
    }
}
