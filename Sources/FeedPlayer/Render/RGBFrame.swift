import FeedCore
/// A picture to draw: packed RGB24 pixels, row by row, top row first.
///
/// The renderer's own input type: any decoder's frame can be wrapped in one (or drawn
/// straight from its buffer with ``HalfBlockRenderer/render(width:height:stride:pixels:into:)``).
public struct RGBFrame: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from the start of one row to the start of the next (at least `width * 3`).
    public var stride: Int
    /// The pixels: `height` rows of `stride` bytes, each pixel red, green, blue.
    public var pixels: [UInt8]

    /// Wraps `pixels`; `stride` defaults to `width * 3` (tightly packed rows).
    /// - Precondition: `pixels` holds `height` rows of `stride` bytes (the last row may end
    ///   after its `width * 3` bytes).
    public init(width: Int, height: Int, stride: Int? = nil, pixels: [UInt8]) {
        let stride = stride ?? width * 3
        precondition(width >= 0 && height >= 0 && stride >= width * 3, "bad frame geometry \(width)x\(height) stride \(stride)")
        precondition(height == 0 || pixels.count >= stride * (height - 1) + width * 3,
                     "\(pixels.count) bytes are too few for \(width)x\(height) RGB24 with stride \(stride)")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }
}
