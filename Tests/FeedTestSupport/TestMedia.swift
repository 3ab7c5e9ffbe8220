import FeedCore

/// Clips for tests, written with the project's own `VideoWriter`.
public enum TestMedia {
    /// An H.264 MP4 of `frames` frames at `fps`, `width`×`height`, a gradient whose colours
    /// depend on `seed`, so clips with different seeds (up to 65,535 of them) differ in bytes.
    @discardableResult
    public static func seededClip(_ path: String, seed: Int, width: Int = 64, height: Int = 48, frames: Int = 10,
                                  fps: Int = 10, rotation: Int = 0) throws -> String {
        let writer = try VideoWriter(path: path, width: width, height: height, fps: Double(fps), rotation: rotation)
        // seed / 256 in blue keeps seeds 256 apart distinct although red wraps.
        let blue = UInt8(truncatingIfNeeded: seed &* 29 &+ seed / 256)
        for index in 0..<frames {
            var frame = Frame(width: width, height: height, format: .rgb24, time: Double(index) / Double(fps))
            for y in 0..<height {
                for x in 0..<width {
                    frame.setRGB(x: x, y: y, UInt8(truncatingIfNeeded: x * 4 + seed * 37),
                                 UInt8(truncatingIfNeeded: y * 5 + index * 9), blue)
                }
            }
            try writer.append(frame)
        }
        try writer.finish()
        return path
    }

    /// A 320x240 30 fps clip of `frames` frames of moving noise: slow to encode and large, for
    /// tests that must catch a `feed stack` run in the middle (signals, a full disk).
    @discardableResult
    public static func noisyClip(_ path: String, seed: Int, frames: Int = 180) throws -> String {
        let (width, height, fps) = (320, 240, 30.0)
        let writer = try VideoWriter(path: path, width: width, height: height, fps: fps, preset: "ultrafast")
        var frame = Frame(width: width, height: height, format: .rgb24)
        let stride = frame.strides[0], offset = frame.offsets[0]
        for index in 0..<frames {
            frame.time = Double(index) / fps
            frame.bytes.withUnsafeMutableBufferPointer { pixels in
                var state = UInt32(truncatingIfNeeded: seed &* 7919 &+ index &* 104_729)
                for y in 0..<height {
                    let row = offset + y * stride
                    for x in 0..<(width * 3) {
                        state = state &* 1_664_525 &+ 1_013_904_223
                        pixels[row + x] = UInt8(truncatingIfNeeded: (x &+ y &* 2 &+ index &* 5) ^ Int(state >> 26))
                    }
                }
            }
            try writer.append(frame)
        }
        try writer.finish()
        return path
    }
}
