import FeedCore
import Foundation

/// Clips with known pictures, for tests that must tell clips and frames apart by what they
/// show: a solid colour per clip (bottom half) and the frame number drawn as 8 black/white
/// blocks (top quarter), written with `VideoWriter`. `number(in:)` and `colour(in:)` read
/// them back from a decoded frame.
public enum NumberedClip {
    /// An 8-bit RGB colour.
    public struct Colour: Equatable, Sendable {
        /// Red, green and blue, 0…255.
        public var r: UInt8, g: UInt8, b: UInt8
        /// A colour from its components.
        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
        /// The default clip colour.
        public static let red = Colour(r: 220, g: 30, b: 30)
        /// A second clip colour, far from red.
        public static let blue = Colour(r: 30, g: 40, b: 220)
        /// A third clip colour, far from red and blue.
        public static let green = Colour(r: 30, g: 200, b: 40)
    }

    /// An upright picture: `number` in blocks on top, `colour` below. Bottom-left corner 8x8 is white,
    /// so a turned picture shows where its corner went.
    public static func picture(width: Int, height: Int, colour: Colour, number: Int) -> Frame {
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
    public static func number(in frame: Frame, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> Int {
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
    public static func colour(in frame: Frame, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> Colour {
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

    /// Whether every component of `a` and `b` is within `tolerance` (encoding blurs colours).
    public static func close(_ a: Colour, _ b: Colour, tolerance: Int = 40) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// What a camera stores for the upright `frame` when it tags it with `rotation` (clockwise
    /// degrees that show it upright): the picture turned `rotation` degrees counter-clockwise.
    public static func stored(_ frame: Frame, rotation: Int) -> Frame {
        let turned = rotation == 90 || rotation == 270
        var out = Frame(width: turned ? frame.height : frame.width, height: turned ? frame.width : frame.height,
                        format: .rgb24, time: frame.time)
        let w = frame.width, h = frame.height
        for y in 0..<h {
            for x in 0..<w {
                let p = frame.rgb(x: x, y: y)
                switch rotation {
                case 90: out.setRGB(x: y, y: w - 1 - x, p.r, p.g, p.b)
                case 180: out.setRGB(x: w - 1 - x, y: h - 1 - y, p.r, p.g, p.b)
                case 270: out.setRGB(x: h - 1 - y, y: x, p.r, p.g, p.b)
                default: out.setRGB(x: x, y: y, p.r, p.g, p.b)
                }
            }
        }
        return out
    }

    /// Writes a clip of `frames` pictures numbered 0…, at `fps` or at the given `times`.
    /// With a `rotation`, `width` x `height` is the upright size and the file stores it turned.
    @discardableResult
    public static func write(_ path: String, width: Int = 64, height: Int = 48, fps: Double = 30, frames: Int = 15,
                      colour: Colour = .red, times: [Double]? = nil, audio: AudioFormat? = nil, audioSeconds: Double? = nil,
                      rotation: Int = 0, codec: VideoCodec = .h264) throws -> String {
        let size = rotation == 90 || rotation == 270 ? (height, width) : (width, height)
        let writer = try VideoWriter(path: path, width: size.0, height: size.1, fps: fps, codec: codec, preset: "ultrafast",
                                     crf: 18, audio: audio, rotation: rotation)
        let count = times?.count ?? frames
        for i in 0..<count {
            var frame = picture(width: width, height: height, colour: colour, number: i)
            if rotation != 0 { frame = stored(frame, rotation: rotation) }
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
