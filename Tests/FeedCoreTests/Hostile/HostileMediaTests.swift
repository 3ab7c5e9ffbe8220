import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// Media no camera makes, opened through `MediaReader` and `MediaProbe`: sizes declared over
/// the 16384x16384 / 100 Mpx limit (in the container or in the H.264 bitstream), sound
/// without pictures, and a 1x1 picture. Each is refused with one line and exit 65, or read
/// correctly.
@Suite("Hostile media", .offThePool)
struct HostileMediaTests {
    /// A file declaring `width`x`height`, by `how`: an AVI header (container) or an H.264 SPS (bitstream).
    struct Declared: CustomTestStringConvertible, Sendable {
        enum How: String, Sendable { case avi, sps }
        let how: How, width: Int, height: Int
        var testDescription: String { "\(how.rawValue) \(width)x\(height)" }

        func make(in folder: ScratchFolder) throws -> String {
            switch how {
            case .avi:
                return try HostileMedia.rawVideoAVI(folder.path("declared.avi"), width: width, height: height, frames: 3,
                                                    frameBytes: 64)
            case .sps:
                let clip = try TestMedia.seededClip(folder.path("clip.mp4"), seed: 3)
                return try HostileMedia.h264DeclaringSize(clip, to: folder.path("declared.h264"), width: width, height: height)
            }
        }
    }

    static let oversized: [Declared] = [
        Declared(how: .avi, width: 32768, height: 32768), Declared(how: .sps, width: 32768, height: 32768),
        Declared(how: .avi, width: 16400, height: 16), Declared(how: .sps, width: 16400, height: 16),
        Declared(how: .sps, width: 12288, height: 12288),
    ]

    /// The error opening `path` for reading (`audio` too), nil if it opens.
    static func opening(_ path: String, audio: Bool = false) -> MediaError? {
        do { _ = try MediaReader(path: path, audio: audio); return nil } catch { return error }
    }

    /// The error probing `path`, nil if it probes.
    static func probing(_ path: String) -> MediaError? {
        do { _ = try MediaProbe.probe(path: path); return nil } catch { return error }
    }

    @Test("a declared size over the limit is refused by the reader and the probe: exit 65, one line", arguments: oversized)
    func oversizedIsRefused(declared: Declared) throws {
        let folder = try ScratchFolder()
        let path = try declared.make(in: folder)

        let opened = Self.opening(path)
        let probed = Self.probing(path)

        for error in [opened, probed] {
            guard case .refused(let named, let reason) = error else {
                Issue.record("expected .refused, got \(String(describing: error))")
                continue
            }
            #expect(named == path)
            #expect(reason.hasPrefix("picture ") && reason.contains("16384x16384"), "\(reason)")
            #expect(error?.kind == .invalidData)
            #expect(error?.description.contains("\n") == false)
        }
    }

    @Test("a side over 16384 with a small area is named with its size", arguments: [Declared.How.avi, .sps])
    func longSideIsNamed(how: Declared.How) throws {
        let folder = try ScratchFolder()
        let path = try Declared(how: how, width: 16400, height: 16).make(in: folder)

        let error = Self.probing(path)

        #expect(error == .refused(path: path, reason: "picture 16400x16 is over the 16384x16384 / 100000000 pixel limit"))
    }

    @Test("the same surgery at the true size still decodes: the refusals above are about the size")
    func surgeryAtTheTrueSizeDecodes() throws {
        let folder = try ScratchFolder()
        let clip = try TestMedia.seededClip(folder.path("clip.mp4"), seed: 3, frames: 10)
        let raw = try HostileMedia.h264DeclaringSize(clip, to: folder.path("same.h264"), width: 64, height: 48)
        let avi = try HostileMedia.rawVideoAVI(folder.path("small.avi"), width: 64, height: 48, frames: 3)

        // A raw H.264 stream carries no frame rate: unknown (0), not its 90 kHz time base.
        #expect(try MediaProbe.probe(path: raw).fps == 0)
        for path in [raw, avi] {
            let reader = try MediaReader(path: path)
            var count = 0
            while let frame = try reader.nextVideoFrame() {
                #expect(frame.width == 64 && frame.height == 48)
                count += 1
            }
            #expect(count == (path == raw ? 10 : 3), "\(path)")
        }
    }

    @Test("an MP4 whose boxes say 32768x32768 over a 64x48 stream reads as 64x48: the bitstream wins")
    func containerBoxesLie() throws {
        let folder = try ScratchFolder()
        let clip = try TestMedia.seededClip(folder.path("clip.mp4"), seed: 4, frames: 5)
        let path = try HostileMedia.mp4DeclaringSize(clip, to: folder.path("boxes.mp4"), width: 32768, height: 32768)

        let reader = try MediaReader(path: path)
        let frame = try #require(try reader.nextVideoFrame())

        #expect(reader.info.codedWidth == 64 && reader.info.codedHeight == 48)
        #expect(frame.width == 64 && frame.height == 48)
    }

    @Test("sound without pictures is .noVideoStream, exit 65", arguments: ["avi", "m4a"])
    func audioOnly(kind: String) throws {
        let folder = try ScratchFolder()
        let path: String
        if kind == "avi" {
            path = try HostileMedia.audioOnlyAVI(folder.path("voice.avi"))
        } else {
            let clip = try NumberedClip.write(folder.path("clip.mp4"), frames: 10, audio: AudioFormat(sampleRate: 44100, channels: 1))
            #expect(try MediaProbe.probe(path: clip).audioCodec == "aac", "the source has sound to keep")
            path = try HostileMedia.mp4WithoutVideo(clip, to: folder.path("voice.m4a"))
        }

        let opened = Self.opening(path, audio: true)
        let probed = Self.probing(path)

        #expect(opened == .noVideoStream(path: path))
        #expect(probed == .noVideoStream(path: path))
        #expect(probed?.kind == .invalidData)
        #expect(probed?.description == "\(path): has no video stream")
    }

    @Test("a 1x1 raw video probes as 1x1 and decodes to the stored pixel, in rgb24, yuv420p and scaled")
    func onePixel() throws {
        let folder = try ScratchFolder()
        let path = try HostileMedia.rawVideoAVI(folder.path("dot.avi"), width: 1, height: 1, frames: 4)

        let info = try MediaProbe.probe(path: path)
        let reader = try MediaReader(path: path)
        var frames: [Frame] = []
        while let frame = try reader.nextVideoFrame() { frames.append(frame) }
        let yuv = try #require(try MediaReader(path: path).nextVideoFrame(format: .yuv420p))
        let scaled = try #require(try MediaReader(path: path).nextVideoFrame(width: 2, height: 2))

        #expect(info.codedWidth == 1 && info.codedHeight == 1 && info.displayWidth == 1 && info.displayHeight == 1)
        #expect(frames.count == 4)
        // Frame n stores the bytes n*40, n*40+7, n*40+14 as blue, green, red.
        for (n, frame) in frames.enumerated() {
            let pixel = frame.rgb(x: 0, y: 0)
            #expect(frame.width == 1 && frame.height == 1)
            #expect([pixel.r, pixel.g, pixel.b] == [UInt8(n * 40 + 14), UInt8(n * 40 + 7), UInt8(n * 40)], "frame \(n)")
        }
        #expect(yuv.width * yuv.height >= 1 && yuv.format == .yuv420p)
        #expect(scaled.width == 2 && scaled.height == 2)
    }

    @Test("stacking a 1x1 clip gives an even-sized output that decodes")
    func stackOnePixel() throws {
        let folder = try ScratchFolder()
        let dot = try HostileMedia.rawVideoAVI(folder.path("dot.avi"), width: 1, height: 1, frames: 10)
        let clip = try TestMedia.seededClip(folder.path("clip.mp4"), seed: 5, frames: 10)

        var options = StackOptions(output: folder.path("out.mp4"))
        options.preset = "ultrafast"
        let result = try Stacker(front: dot, back: clip, options: options).run()
        let info = try MediaProbe.probe(path: result.output)

        #expect(result.width % 2 == 0 && result.height % 2 == 0 && result.width >= 2)
        #expect(info.displayWidth == result.width && info.displayHeight == result.height)
        #expect(result.frames == 10)
    }
}
