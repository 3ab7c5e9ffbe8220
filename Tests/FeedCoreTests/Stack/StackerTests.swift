import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// End-to-end stacks of generated clips, checked by decoding the output.
@Suite("Stacker", .offThePool)
struct StackerTests {
    /// Every frame of a file, rgb24.
    static func frames(_ path: String) throws -> [Frame] {
        let reader = try MediaReader(path: path)
        var frames: [Frame] = []
        while let frame = try reader.nextVideoFrame() { frames.append(frame) }
        return frames
    }

    static func stack(_ folder: ScratchFolder, front: String, back: String, _ configure: (inout StackOptions) -> Void = { _ in }) throws -> StackResult {
        var options = StackOptions(output: folder.path("out.mp4"))
        options.preset = "ultrafast"
        options.crf = 18
        configure(&options)
        return try Stacker(front: front, back: back, options: options).run()
    }

    @Test("the back goes on top and the front below; --top front swaps them")
    func order() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 10, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 10, colour: .blue)

        let result = try Self.stack(folder, front: front, back: back)
        let frames = try Self.frames(result.output)

        #expect(result.width == 64 && result.height == 96 && result.frames == 10)
        #expect(frames.count == 10)
        for (n, frame) in frames.enumerated() {
            #expect(NumberedClip.close(NumberedClip.colour(in: frame, y: 0, height: 48), .red))
            #expect(NumberedClip.close(NumberedClip.colour(in: frame, y: 48, height: 48), .blue))
            #expect(NumberedClip.number(in: frame, y: 0, height: 48) == n)
            #expect(NumberedClip.number(in: frame, y: 48, height: 48) == n)
        }

        try FileManager.default.removeItem(atPath: result.output)
        let swapped = try Self.frames(try Self.stack(folder, front: front, back: back) { $0.top = .front }.output)
        #expect(NumberedClip.close(NumberedClip.colour(in: swapped[0], y: 0, height: 48), .blue))
        #expect(NumberedClip.close(NumberedClip.colour(in: swapped[0], y: 48, height: 48), .red))
    }

    @Test("30 fps back, 24 fps front: each output frame shows each input's frame for that instant")
    func mixedRates() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), fps: 30, frames: 30, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), fps: 24, frames: 24, colour: .blue)

        let result = try Self.stack(folder, front: front, back: back)
        let frames = try Self.frames(result.output)

        #expect(result.fps == 30 && frames.count == 30)
        for (n, frame) in frames.enumerated() {
            #expect(NumberedClip.number(in: frame, y: 0, height: 48) == n)
            #expect(NumberedClip.number(in: frame, y: 48, height: 48) == Int((Double(n) * 24 / 30 + 1e-9).rounded(.down)), "frame \(n)")
        }
    }

    @Test("a variable-rate front stays in sync: the latest frame at or before each instant")
    func variableRate() throws {
        let folder = try ScratchFolder()
        let times: [Double] = [0, 0.02, 0.15, 0.2, 0.21, 0.4, 0.5, 0.55, 0.7, 0.9, 0.95, 1.0]
        let back = try NumberedClip.write(folder.path("back.mp4"), fps: 30, frames: 30, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), fps: 30, colour: .blue, times: times)

        let frames = try Self.frames(try Self.stack(folder, front: front, back: back).output)

        #expect(frames.count == 30)
        for (n, frame) in frames.enumerated() {
            let t = Double(n) / 30
            let expected = times.lastIndex { $0 <= t + 1e-6 } ?? 0
            #expect(NumberedClip.number(in: frame, y: 48, height: 48) == expected, "frame \(n) at \(t)")
        }
    }

    @Test("variable-rate phone clips stack to the standard rate they were filmed at, not their average")
    func standardRate() throws {
        let folder = try ScratchFolder()
        // 30 fps with every fifth frame dropped (average 24), and 1 s each at 30, 15 and 60 fps
        // (average 35): both were filmed at 30.
        let drops: [Double] = (0..<60).filter { $0 % 5 != 4 }.map { Double($0) / 30 }
        let thirty: [Double] = (0..<30).map { Double($0) / 30 }
        let fifteen: [Double] = (0..<15).map { 1 + Double($0) / 15 }
        let sixty: [Double] = (0..<60).map { 2 + Double($0) / 60 }
        let mixed = thirty + fifteen + sixty
        let back = try NumberedClip.write(folder.path("back.mp4"), fps: 30, colour: .red, times: drops)
        let front = try NumberedClip.write(folder.path("front.mp4"), fps: 30, colour: .blue, times: mixed)
        #expect(try MediaReader(path: back).info.variableFrameRate && MediaReader(path: front).info.variableFrameRate)

        let result = try Self.stack(folder, front: front, back: back)

        #expect(result.fps == 30)
        let written = try MediaReader(path: result.output).info
        #expect(Swift.abs(written.fps - 30) < 0.01 && !written.variableFrameRate, "\(written.fps)")
    }

    @Test("a 29.97 fps clip stacks at 29.97, a 60 fps one at 60")
    func keepsStandardRates() throws {
        let folder = try ScratchFolder()
        let ntsc = try NumberedClip.write(folder.path("ntsc.mp4"), fps: 30000.0 / 1001, frames: 20, colour: .red)
        let sixty = try NumberedClip.write(folder.path("sixty.mp4"), fps: 60, frames: 40, colour: .blue)

        let ntscRate = try Self.stack(folder, front: ntsc, back: ntsc).fps
        #expect(Swift.abs(ntscRate - 30000.0 / 1001) < 1e-9)
        #expect(try Self.stack(folder, front: ntsc, back: sixty) { $0.force = true }.fps == 60)
    }

    @Test("--offset shifts the front: later holds its first frame, earlier skips its start", arguments: [0.5, -0.3])
    func offset(_ offset: Double) throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), fps: 30, frames: 30, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), fps: 30, frames: 30, colour: .blue)

        let frames = try Self.frames(try Self.stack(folder, front: front, back: back) { $0.offset = offset }.output)

        #expect(frames.count == (offset > 0 ? 30 : 21))
        for (n, frame) in frames.enumerated() {
            let expected = max(0, Int((Double(n) / 30 - offset) * 30 + 1e-6))
            #expect(NumberedClip.number(in: frame, y: 48, height: 48) == expected, "frame \(n)")
            #expect(NumberedClip.number(in: frame, y: 0, height: 48) == n)
        }
    }

    @Test("a portrait clip stored landscape with rotate=90 comes out upright")
    func rotation() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), width: 48, height: 64, frames: 5, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), width: 48, height: 64, frames: 5, colour: .blue, rotation: 90, codec: .hevc)

        let result = try Self.stack(folder, front: front, back: back)
        let frame = try #require(try Self.frames(result.output).last)

        #expect(result.width == 48 && result.height == 128)
        #expect(NumberedClip.number(in: frame, y: 64, height: 64) == 4)
        #expect(NumberedClip.close(NumberedClip.colour(in: frame, y: 64, height: 64), .blue))
        let corner = frame.rgb(x: 3, y: 124) // the white bottom-left corner of the upright picture
        #expect(corner.r > 180 && corner.g > 180 && corner.b > 180)
    }

    @Test("--size with --fit crop keeps the middle of a rotated picture; pad leaves black bars")
    func fitRotated() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), width: 64, height: 48, frames: 3, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), width: 48, height: 64, frames: 3, colour: .blue, rotation: 90)

        let cropped = try Self.stack(folder, front: front, back: back) { $0.size = .init(width: 64, height: 64); $0.fit = .crop }
        let crop = try #require(try Self.frames(cropped.output).first)
        try FileManager.default.removeItem(atPath: cropped.output)
        let padded = try Self.stack(folder, front: front, back: back) { $0.size = .init(width: 64, height: 64) }
        let pad = try #require(try Self.frames(padded.output).first)

        // The front's slot is 64x32: the upright 48x64 picture scaled to 64 wide, rows 20…44 of it kept.
        #expect(NumberedClip.close(NumberedClip.colour(in: crop, y: 32, height: 32), .blue))
        let top = crop.rgb(x: 32, y: 34)
        #expect(abs(Int(top.r) - 90) < 30 && abs(Int(top.b) - 90) < 30) // the grey above the colour, not the number blocks
        // Padded: 24x32 picture centred in the 64x32 slot, black either side.
        let bar = pad.rgb(x: 4, y: 48)
        #expect(bar.r < 30 && bar.g < 30 && bar.b < 30)
        #expect(NumberedClip.close(NumberedClip.colour(in: pad, x: 20, y: 32, width: 24, height: 32), .blue))
    }

    @Test("--until shortest ends with the shorter clip; longest holds its last frame")
    func until() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), fps: 30, frames: 30, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), fps: 30, frames: 15, colour: .blue)

        let shortest = try Self.stack(folder, front: front, back: back)
        let shortDuration = try MediaProbe.probe(path: shortest.output).duration
        #expect(shortest.frames == 15 && abs(shortDuration - 0.5) < 0.05)
        try FileManager.default.removeItem(atPath: shortest.output)

        let longest = try Self.stack(folder, front: front, back: back) { $0.until = .longest }
        let frames = try Self.frames(longest.output)
        let longDuration = try MediaProbe.probe(path: longest.output).duration
        #expect(longest.frames == 30 && abs(longDuration - 1.0) < 0.05)
        #expect(NumberedClip.number(in: frames[29], y: 48, height: 48) == 14)
        #expect(NumberedClip.number(in: frames[29], y: 0, height: 48) == 29)
    }

    @Test("audio: the back's by default, else the front's, none on request, cut to the video")
    func audio() throws {
        let folder = try ScratchFolder()
        let sound = AudioFormat(sampleRate: 44100, channels: 2)
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 30, audio: sound, audioSeconds: 1.5)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 30)
        let silentBack = try NumberedClip.write(folder.path("silent.mp4"), frames: 30)
        let loudFront = try NumberedClip.write(folder.path("loud.mp4"), frames: 15, audio: AudioFormat(sampleRate: 22050, channels: 1))

        let withBack = try Self.stack(folder, front: front, back: back)
        let reader = try MediaReader(path: withBack.output, video: false, audio: true)
        var samples = 0
        while let chunk = try reader.readAudio(sampleRate: 44100, channels: 2) { samples += chunk.frames }
        #expect(withBack.audio == "back" && reader.info.audioChannels == 2 && reader.info.audioSampleRate == 44100)
        #expect(abs(Double(samples) / 44100 - 1.0) < 0.05)
        try FileManager.default.removeItem(atPath: withBack.output)

        let fromFront = try Self.stack(folder, front: loudFront, back: silentBack)
        let frontRate = try MediaProbe.probe(path: fromFront.output).audioSampleRate
        #expect(fromFront.audio == "front" && frontRate == 22050)
        try FileManager.default.removeItem(atPath: fromFront.output)

        let none = try Self.stack(folder, front: front, back: back) { $0.audio = StackOptions.Audio.none }
        let noneCodec = try MediaProbe.probe(path: none.output).audioCodec
        #expect(none.audio == nil && noneCodec == nil)
        try FileManager.default.removeItem(atPath: none.output)

        #expect(throws: StackError.noAudio(path: front)) { try Self.stack(folder, front: front, back: back) { $0.audio = .front } }
    }

    @Test("the front's audio moves with --offset: silence first, then its sound, cut to the video")
    func audioOffset() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 30)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 30, audio: AudioFormat(sampleRate: 48000, channels: 1))

        let result = try Self.stack(folder, front: front, back: back) { $0.offset = 0.5; $0.audio = .front }
        let reader = try MediaReader(path: result.output, video: false, audio: true)
        var samples: [Float] = []
        while let chunk = try reader.readAudio(sampleRate: 48000, channels: 1) { samples += chunk.samples }

        #expect(result.audio == "front" && result.frames == 30)
        #expect(abs(Double(samples.count) / 48000 - 1.0) < 0.05)
        let early = samples[0..<19200].map(abs).max() ?? 1      // 0 … 0.4 s
        let late = samples[28800..<43200].map(abs).max() ?? 0   // 0.6 … 0.9 s
        #expect(early < 0.02 && late > 0.2)
    }

    @Test("odd widths and sizes still give even output dimensions")
    func evenSizes() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 3)
        let front = try NumberedClip.write(folder.path("front.mp4"), width: 48, height: 64, frames: 3)

        let narrow = try Self.stack(folder, front: front, back: back) { $0.width = 51 }
        let info = try MediaProbe.probe(path: narrow.output)
        try FileManager.default.removeItem(atPath: narrow.output)
        let fixed = try Self.stack(folder, front: front, back: back) { $0.size = StackOptions.Size(width: 101, height: 77) }

        #expect(info.codedWidth == 50 && info.codedWidth % 2 == 0 && info.codedHeight % 2 == 0)
        #expect(fixed.width == 100 && fixed.height == 76)
    }

    @Test("pip puts the front as a quarter-width inset in the top-right corner of the back; hstack side by side")
    func otherLayouts() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), width: 128, height: 96, frames: 3, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), width: 64, height: 48, frames: 3, colour: .blue)

        let pip = try Self.stack(folder, front: front, back: back) { $0.layout = .pip }
        let inset = try #require(try Self.frames(pip.output).first)
        try FileManager.default.removeItem(atPath: pip.output)
        let side = try Self.stack(folder, front: front, back: back) { $0.layout = .hstack }
        let pair = try #require(try Self.frames(side.output).first)

        #expect(pip.width == 128 && pip.height == 96)
        #expect(NumberedClip.close(NumberedClip.colour(in: inset, x: 0, y: 0, width: 64, height: 96), .red))
        let corner = inset.rgb(x: 128 - 4 - 16, y: 4 + 20) // inside the inset's coloured lower half
        #expect(NumberedClip.close(NumberedClip.Colour(r: corner.r, g: corner.g, b: corner.b), .blue, tolerance: 60))
        #expect(side.width == 128 && side.height == 48) // common height: the lower one, 48
        #expect(NumberedClip.close(NumberedClip.colour(in: pair, x: 0, y: 0, width: 64, height: 48), .red))
        #expect(NumberedClip.close(NumberedClip.colour(in: pair, x: side.width - 64, y: 0, width: 64, height: 48), .blue))
    }

    @Test("cancellation stops with .interrupted and leaves nothing behind")
    func cancel() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 30)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 30)
        var polls = 0
        var options = StackOptions(output: folder.path("out.mp4"))
        options.preset = "ultrafast"

        #expect(throws: StackError.interrupted) {
            try Stacker(front: front, back: back, options: options).run(isCancelled: { polls += 1; return polls > 5 })
        }
        #expect(folder.contents() == ["back.mp4", "front.mp4"])
    }

    @Test("progress ends at every frame written")
    func progress() throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 12)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 12)
        var reports: [StackProgress] = []
        var options = StackOptions(output: folder.path("out.mp4"))
        options.preset = "ultrafast"

        let result = try Stacker(front: front, back: back, options: options).run(progress: { reports.append($0) })

        #expect(reports.last?.frames == result.frames && reports.last?.fraction == 1)
    }
}
