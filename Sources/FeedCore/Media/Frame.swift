/// A decoded or to-be-encoded picture whose pixels the caller owns, with its time in seconds.
///
/// Planes are stored one after another in `bytes`: rgb24 has one plane of `width * 3` bytes a row;
/// yuv420p has Y (`width` a row) then U and V (`(width + 1) / 2` a row, `(height + 1) / 2` rows).
public struct Frame: Sendable, Equatable {
    /// Pixel layouts a frame can have.
    public enum Format: String, Sendable, Codable {
        case rgb24, yuv420p
        var raw: Int32 { self == .rgb24 ? 0 : 1 }
    }

    public let width: Int
    public let height: Int
    public let format: Format
    /// Presentation time in seconds from the start of the file.
    public var time: Double
    /// All planes, back to back.
    public var bytes: [UInt8]
    /// Bytes per row of each plane.
    public let strides: [Int]
    /// Where each plane starts in `bytes`.
    public let offsets: [Int]

    /// A black frame (all zero bytes for rgb24, limited-range black for yuv420p).
    public init(width: Int, height: Int, format: Format, time: Double = 0) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.width = width
        self.height = height
        self.format = format
        self.time = time
        switch format {
        case .rgb24:
            strides = [width * 3]
            offsets = [0]
            bytes = [UInt8](repeating: 0, count: width * 3 * height)
        case .yuv420p:
            let cw = (width + 1) / 2, ch = (height + 1) / 2
            strides = [width, cw, cw]
            offsets = [0, width * height, width * height + cw * ch]
            bytes = [UInt8](repeating: 16, count: width * height)
                + [UInt8](repeating: 128, count: 2 * cw * ch)
        }
    }

    /// The red, green and blue values at (x, y) of an rgb24 frame.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        precondition(format == .rgb24, "rgb(x:y:) needs an rgb24 frame")
        let i = y * strides[0] + x * 3
        return (bytes[i], bytes[i + 1], bytes[i + 2])
    }

    /// The byte of `plane` at (x, y) in that plane's own coordinates.
    public func sample(plane: Int, x: Int, y: Int) -> UInt8 {
        bytes[offsets[plane] + y * strides[plane] + x]
    }

    /// Sets the pixel at (x, y) of an rgb24 frame.
    public mutating func setRGB(x: Int, y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        precondition(format == .rgb24, "setRGB needs an rgb24 frame")
        let i = y * strides[0] + x * 3
        bytes[i] = r
        bytes[i + 1] = g
        bytes[i + 2] = b
    }

    /// Calls `body` with three plane pointers and strides in the shim's layout (unused planes repeat the first).
    mutating func withPlanes<R>(_ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        let offsets = self.offsets, strides = self.strides
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var planes: [UnsafeMutablePointer<UInt8>?] = (0..<3).map { base + offsets[min($0, offsets.count - 1)] }
            var rows: [Int32] = (0..<3).map { Int32(strides[min($0, strides.count - 1)]) }
            return planes.withUnsafeMutableBufferPointer { p in
                rows.withUnsafeMutableBufferPointer { s in body(UnsafePointer(p.baseAddress!), UnsafePointer(s.baseAddress!)) }
            }
        }
    }
}
