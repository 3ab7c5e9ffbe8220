import Foundation
@testable import FeedCore

/// Clips with known pictures for the media and stack tests: a solid colour per clip (bottom half)
/// and the frame number drawn as 8 black/white blocks (top quarter), written with VideoWriter.
enum TestClips {
    struct Colour: Equatable {
        var r: UInt8, g: UInt8, b: UInt8
        static let red = Colour(r: 220, g: 30, b: 30)
        static let blue = Colour(r: 30, g: 40, b: 220)
        static let green = Colour(r: 30, g: 200, b: 40)
    }

    /// A fresh empty folder, removed by the caller with `cleanUp`.
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "feed-media-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func cleanUp(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// An upright picture: `number` in blocks on top, `colour` below. Bottom-left corner 8x8 is white,
    /// so a turned picture shows where its corner went.
    static func picture(width: Int, height: Int, colour: Colour, number: Int) -> Frame {
        var frame = Frame(width: width, height: height, format: .rgb24)
        for y in 0..<height {
            for x in 0..<width {
                var c = (y >= height / 2) ? colour : Colour(r: 90, g: 90, b: 90)
                if y < height / 4 {
                    let bit = (number >> (7 - min(7, x * 8 / width))) & 1
                    c = bit == 1 ? Colour(r: 255, g: 255, b: 255) : Colour(r: 0, g: 0, b: 0)
                }
                if y >= height - 8 && x < 8 { c = Colour(r: 255, g: 255, b: 255) }
                frame.setRGB(x: x, y: y, c.r, c.g, c.b)
            }
        }
        return frame
    }

    /// The frame number drawn by `picture` inside the region (x, y, width, height) of an rgb24 frame.
    static func number(in frame: Frame, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> Int {
        let w = width ?? frame.width, h = height ?? frame.height
        var value = 0
        for bit in 0..<8 {
            let px = x + (bit * w + w / 2) / 8, py = y + h / 8
            let p = frame.rgb(x: px, y: py)
            value = value << 1 | ((Int(p.r) + Int(p.g) + Int(p.b)) / 3 > 128 ? 1 : 0)
        }
        return value
    }

    /// The average colour of the middle of the bottom half of a region.
    static func colour(in frame: Frame, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> Colour {
        let w = width ?? frame.width, h = height ?? frame.height
        var sums = (0, 0, 0), count = 0
        for py in (y + h * 5 / 8)..<(y + h * 7 / 8) {
            for px in (x + w / 4)..<(x + w * 3 / 4) {
                let p = frame.rgb(x: px, y: py)
                sums.0 += Int(p.r); sums.1 += Int(p.g); sums.2 += Int(p.b); count += 1
            }
        }
        return Colour(r: UInt8(sums.0 / count), g: UInt8(sums.1 / count), b: UInt8(sums.2 / count))
    }

    static func close(_ a: Colour, _ b: Colour, tolerance: Int = 40) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// `frame` turned 90° counter-clockwise: what a phone stores for a portrait picture tagged rotate=90.
    static func storedForRotation90(_ frame: Frame) -> Frame {
        var out = Frame(width: frame.height, height: frame.width, format: .rgb24, time: frame.time)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = frame.rgb(x: x, y: y)
                // upright (x, y) = stored (y, H - 1 - x) where H = stored height = frame.width
                out.setRGB(x: y, y: frame.width - 1 - x, p.r, p.g, p.b)
            }
        }
        return out
    }

    /// Writes a clip of `frames` pictures numbered 0…, at `fps` or at the given `times`.
    /// With `rotation: 90`, `width` x `height` is the upright size and the file stores it turned.
    @discardableResult
    static func write(_ path: String, width: Int = 64, height: Int = 48, fps: Double = 30, frames: Int = 15,
                      colour: Colour = .red, times: [Double]? = nil, audio: AudioFormat? = nil, audioSeconds: Double? = nil,
                      rotation: Int = 0, codec: VideoCodec = .h264) throws -> String {
        let stored = rotation == 90 ? (height, width) : (width, height)
        let writer = try VideoWriter(path: path, width: stored.0, height: stored.1, fps: fps, codec: codec, preset: "ultrafast",
                                     crf: 18, audio: audio, rotation: rotation)
        let count = times?.count ?? frames
        for i in 0..<count {
            var frame = picture(width: width, height: height, colour: colour, number: i)
            if rotation == 90 { frame = storedForRotation90(frame) }
            frame.time = times?[i] ?? Double(i) / fps
            try writer.append(frame)
        }
        if let audio {
            let total = Int((audioSeconds ?? Double(count) / fps) * Double(audio.sampleRate))
            var samples = [Float](repeating: 0, count: total * audio.channels)
            for i in 0..<total {
                let v = Float(0.3 * sin(2 * Double.pi * 440 * Double(i) / Double(audio.sampleRate)))
                for c in 0..<audio.channels { samples[i * audio.channels + c] = v }
            }
            try writer.appendAudio(samples)
        }
        try writer.finish()
        return path
    }
}
