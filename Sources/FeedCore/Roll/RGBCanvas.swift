/// A packed 24-bit RGB image in memory, the contact sheet's drawing surface.
public struct RGBCanvas: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes, rows top to bottom, no padding.
    public private(set) var pixels: [UInt8]

    /// A canvas filled with one colour.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fillRect(x: 0, y: 0, width: width, height: height, color: fill)
    }

    /// The colour at (x, y).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Fills a rectangle, clipped to the canvas.
    public mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: (UInt8, UInt8, UInt8)) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { p in
            for row in y0..<y1 {
                var i = (row * canvasWidth + x0) * 3
                for _ in x0..<x1 {
                    p[i] = color.0; p[i + 1] = color.1; p[i + 2] = color.2
                    i += 3
                }
            }
        }
    }

    /// Copies a packed RGB image of `w`×`h` (`stride` bytes per row) with its top-left at (x, y), clipped.
    public mutating func blit(_ source: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int, stride: Int, x: Int, y: Int) {
        let canvasWidth = width, canvasHeight = height
        pixels.withUnsafeMutableBufferPointer { p in
            for row in 0..<h where y + row >= 0 && y + row < canvasHeight {
                let from = max(0, -x), to = min(w, canvasWidth - x)
                guard from < to else { continue }
                let src = row * stride + from * 3
                let dst = ((y + row) * canvasWidth + x + from) * 3
                for k in 0..<(to - from) * 3 { p[dst + k] = source[src + k] }
            }
        }
    }

    /// Draws `text` in the built-in 5×7 font with its top-left at (x, y), each font pixel
    /// `scale`×`scale` canvas pixels.
    public mutating func draw(_ text: String, x: Int, y: Int, scale: Int = 2, color: (UInt8, UInt8, UInt8)) {
        var penX = x
        for character in text {
            let rows = BitmapFont.rows(character)
            for (r, bits) in rows.enumerated() {
                for c in 0..<BitmapFont.width where bits & (0x10 >> UInt8(c)) != 0 {
                    fillRect(x: penX + c * scale, y: y + r * scale, width: scale, height: scale, color: color)
                }
            }
            penX += (BitmapFont.width + 1) * scale
        }
    }
}
