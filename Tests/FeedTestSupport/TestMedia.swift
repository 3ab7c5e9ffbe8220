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
        // Red depends on x only, green on y and the frame: one row of red and blue is made once,
        // and each frame's rows are that row with their green. (Pixel by pixel through
        // `setRGB`, a 320x480 clip of 150 frames took seconds in a debug build, tens of seconds
        // under the sanitizers, on a thread the other tests' tasks needed.)
        var row = [UInt8](repeating: blue, count: width * 3)
        for x in 0..<width { row[x * 3] = UInt8(truncatingIfNeeded: x * 4 + seed * 37) }
        var frame = Frame(width: width, height: height, format: .rgb24)
        let stride = frame.strides[0], offset = frame.offsets[0]
        for index in 0..<frames {
            frame.time = Double(index) / Double(fps)
            frame.bytes.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<height {
                    let start = offset + y * stride
                    let green = UInt8(truncatingIfNeeded: y * 5 + index * 9)
                    for x in 0..<width {
                        pixels[start + x * 3] = row[x * 3]
                        pixels[start + x * 3 + 1] = green
                        pixels[start + x * 3 + 2] = blue
                    }
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
