import FeedCore
/// Measures how fast one clip plays into a terminal on one core: each frame decoded (one
/// decoder thread), scaled to fit the terminal, and drawn as half-blocks into a buffer that is
/// then thrown away, as `feed play` would write it.
public enum RenderMeasurement {
    /// What one measurement found.
    public struct Result: Sendable, Equatable, Codable {
        /// Frames decoded, scaled and drawn.
        public var frames: Int
        /// The frame size drawn, in pixels (cells: width × height/2).
        public var width: Int
        /// The frame height drawn, in pixels.
        public var height: Int
        /// Wall time for everything, seconds.
        public var seconds: Double
        /// Frames per second for everything.
        public var fps: Double
        /// Frames per second counting only the half-block drawing.
        public var renderFps: Double
        /// The mean bytes written per frame.
        public var bytesPerFrame: Double

        enum CodingKeys: String, CodingKey {
            case frames, width, height, seconds, fps
            case renderFps = "render_fps"
            case bytesPerFrame = "bytes_per_frame"
        }
    }

    /// Plays `frames` frames of `location` into a `columns` × `rows` terminal as fast as it can.
    /// - Throws: `MediaError` when the clip cannot be opened or decoded.
    public static func run(location: MediaLocation, columns: Int, rows: Int, frames: Int,
                           colorMode: TerminalColorMode = .truecolor) async throws -> Result {
        let player = MediaClipPlayer(location: location, options: .init(boxWidth: columns, boxHeight: rows * 2, threads: 1))
        try await player.prepare()
        defer { player.close() }
        var renderer = HalfBlockRenderer(options: .init(colorMode: colorMode, tolerance: 6))
        var out: [UInt8] = []
        out.reserveCapacity(columns * rows * 64)
        let clock = ContinuousClock()
        var drawing = Duration.zero
        var bytes = 0
        var size = (0, 0)
        let start = clock.now
        for _ in 0..<frames {
            guard try player.stepFrame() else { break }
            out.removeAll(keepingCapacity: true)
            let began = clock.now
            player.withFrame { frame in
                size = (frame.width, frame.height)
                frame.bytes.withUnsafeBufferPointer { pixels in
                    _ = renderer.render(width: frame.width, height: frame.height, stride: frame.strides[0], pixels: pixels, into: &out)
                }
            }
            drawing += clock.now - began
            bytes += out.count
        }
        let seconds = (clock.now - start).seconds
        let count = player.frameCount - 1
        return Result(frames: count, width: size.0, height: size.1, seconds: seconds,
                      fps: Double(count) / max(seconds, 1e-9), renderFps: Double(count) / max(drawing.seconds, 1e-9),
                      bytesPerFrame: Double(bytes) / Double(max(count, 1)))
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
