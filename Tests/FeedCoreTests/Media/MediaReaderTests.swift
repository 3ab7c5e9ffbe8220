import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

@Suite("MediaReader", .offThePool)
struct MediaReaderTests {
    @Test("a written clip reads back with its size, frame count, numbers, colour and times")
    func roundTrip() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("red.mp4"), fps: 30, frames: 15, colour: .red)

        let reader = try MediaReader(path: path)
        var frames: [Frame] = []
        while let frame = try reader.nextVideoFrame() { frames.append(frame) }

        #expect(reader.info.codedWidth == 64 && reader.info.codedHeight == 48)
        #expect(reader.info.videoCodec == "h264" && reader.info.container == "mp4")
        #expect(Swift.abs(reader.info.fps - 30) < 0.01)
        #expect(Swift.abs(reader.info.duration - 0.5) < 0.05)
        #expect(!reader.info.variableFrameRate)
        #expect(frames.count == 15)
        for (i, frame) in frames.enumerated() {
            #expect(frame.width == 64 && frame.height == 48)
            #expect(NumberedClip.number(in: frame) == i)
            #expect(NumberedClip.close(NumberedClip.colour(in: frame), .red))
            #expect(Swift.abs(frame.time - Double(i) / 30) < 0.001)
        }
    }

    @Test("keyFrameTime: the index's key frame at or before a time, reading nothing; the picture read next is unchanged")
    func keyFrames() throws {
        let folder = try ScratchFolder()
        // 2 s at 30 fps: x264's key frames are 250 pictures apart, so the first is the only one.
        let path = try NumberedClip.write(folder.path("one-key.mp4"), fps: 30, frames: 60, colour: .green)
        let reader = try MediaReader(path: path)
        #expect(try reader.nextVideoFrame().map { NumberedClip.number(in: $0) } == 0)
        for time in [0, 0.5, 1.9, 30] { #expect(reader.keyFrameTime(atOrBefore: time) == 0, "at \(time) s") }
        #expect(try reader.nextVideoFrame().map { NumberedClip.number(in: $0) } == 1)
        // A picture read, then shown as nextVideoFrame shows it.
        let picture = try #require(try reader.nextPicture())
        #expect(Swift.abs(picture.time - 2.0 / 30) < 0.001)
        #expect(NumberedClip.number(in: try reader.videoFrame(from: picture)) == 2)
    }

    @Test("a clip tagged with a rotation reads upright at its display size", arguments: [90, 180, 270])
    func rotation(_ rotation: Int) throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("phone.mp4"), width: 48, height: 64, frames: 3, colour: .blue, rotation: rotation)

        let reader = try MediaReader(path: path)
        let frame = try #require(try reader.nextVideoFrame())

        let turned = rotation != 180
        #expect(reader.info.rotation == rotation)
        #expect(reader.info.codedWidth == (turned ? 64 : 48) && reader.info.codedHeight == (turned ? 48 : 64))
        #expect(reader.info.displayWidth == 48 && reader.info.displayHeight == 64)
        #expect(frame.width == 48 && frame.height == 64)
        #expect(NumberedClip.number(in: frame) == 0)
        #expect(NumberedClip.close(NumberedClip.colour(in: frame), .blue))
        let corner = frame.rgb(x: 3, y: 60)
        #expect(corner.r > 200 && corner.g > 200 && corner.b > 200)
    }

    @Test("irregular frame times are reported as variable frame rate and read back exactly")
    func variableFrameRate() throws {
        let folder = try ScratchFolder()
        let times: [Double] = (0..<20).map { (i: Int) -> Double in
            Double(i) * 0.05 + (i % 3 == 1 ? 0.02 : 0.0)
        }
        let path = try NumberedClip.write(folder.path("vfr.mp4"), times: times)

        let reader = try MediaReader(path: path)
        var read: [Double] = []
        while let frame = try reader.nextVideoFrame() { read.append(frame.time) }

        #expect(reader.info.variableFrameRate)
        #expect(read.count == times.count)
        for (a, b) in zip(read, times) { #expect(Swift.abs(a - b) < 0.001) }
    }

    @Test("a 30 fps clip with dropped frames: average 24, nominal 30, variable")
    func nominalRate() throws {
        let folder = try ScratchFolder()
        let times = (0..<90).filter { $0 % 5 != 4 }.map { Double($0) / 30 }
        let path = try NumberedClip.write(folder.path("drops.mp4"), fps: 30, times: times)

        let info = try MediaReader(path: path).info

        #expect(info.variableFrameRate)
        #expect(Swift.abs(info.fps - 24) < 0.5, "average: \(info.fps)")
        #expect(Swift.abs(info.nominalFPS - 30) < 0.01, "nominal: \(info.nominalFPS)")
    }

    @Test("a constant 29.97 fps clip: nominal and average rate agree")
    func ntscRate() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("ntsc.mp4"), fps: 30000.0 / 1001, frames: 30)

        let info = try MediaReader(path: path).info

        #expect(!info.variableFrameRate)
        #expect(Swift.abs(info.nominalFPS - 30000.0 / 1001) < 0.01 && Swift.abs(info.fps - 30000.0 / 1001) < 0.01, "\(info.nominalFPS) \(info.fps)")
    }

    @Test("scaling keeps the aspect ratio and yuv420p sizes are even")
    func scaled() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("a.mp4"), width: 64, height: 48, frames: 2)

        let reader = try MediaReader(path: path)
        let small = try #require(try reader.nextVideoFrame(width: 32))
        let yuv = try #require(try reader.nextVideoFrame(width: 33, format: .yuv420p))

        #expect(small.width == 32 && small.height == 24)
        #expect(yuv.width == 34 && yuv.height == 26 && yuv.format == .yuv420p)
        #expect(yuv.bytes.count == 34 * 26 + 2 * 17 * 13)
    }

    @Test("seek moves to the frame shown at that time")
    func seek() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("a.mp4"), frames: 30)

        let reader = try MediaReader(path: path)
        try reader.seek(to: 0.5)
        let frame = try #require(try reader.nextVideoFrame())

        #expect(NumberedClip.number(in: frame) == 15)
        #expect(Swift.abs(frame.time - 0.5) < 0.001)
    }

    @Test("audio reads back converted, about as long as written")
    func audio() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("a.mp4"), frames: 30, audio: AudioFormat(sampleRate: 48000, channels: 2))

        let reader = try MediaReader(path: path, video: false, audio: true)
        var total = 0
        var peak: Float = 0
        while let chunk = try reader.readAudio(sampleRate: 44100, channels: 1) {
            total += chunk.frames
            peak = max(peak, chunk.samples.map(abs).max() ?? 0)
        }

        #expect(reader.info.audioCodec == "aac" && reader.info.audioSampleRate == 48000 && reader.info.audioChannels == 2)
        #expect(Swift.abs(Double(total) / 44100 - 1.0) < 0.06)
        #expect(peak > 0.2 && peak < 0.5) // 0.3 a channel; the mono downmix adds up to 3 dB
    }

    @Test("a file without audio gives no audio")
    func noAudio() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("a.mp4"), frames: 3)

        let reader = try MediaReader(path: path, video: false, audio: true)

        #expect(reader.info.audioCodec == nil)
        #expect(try reader.readAudio(sampleRate: 48000, channels: 2) == nil)
    }
}
