import FeedCore
/// Draws RGB frames in a terminal with half-blocks: each cell shows two pixels, the top one
/// as the foreground of `▀` and the bottom one as the background.
///
/// A frame must already be scaled to the cells it covers: `columns` pixels wide and
/// `rows * 2` high (an odd last row is drawn over black). The renderer keeps the cells it
/// sent last and re-sends only those that changed, moving the cursor over unchanged runs
/// and setting a colour only when it differs from the one in effect. Each call appends one
/// frame's bytes to the caller's buffer, so the caller can add an overlay and write it all
/// at once; nothing is allocated per pixel. An unchanged frame appends nothing.
///
/// After anything else draws over the frame's cells (an overlay, a clear, a resize), call
/// `invalidate` so those cells are sent again.
public struct HalfBlockRenderer: Sendable {
    /// How frames are drawn.
    public struct Options: Sendable, Equatable {
        /// Truecolor, or the nearest colours of the 256-colour palette.
        public var colorMode: TerminalColorMode
        /// Wraps each frame in `CSI ?2026h` … `CSI ?2026l`, so terminals that support it
        /// show the frame at once instead of as it arrives (others ignore it).
        public var synchronizedOutput: Bool
        /// The terminal row (1-based) of the frame's top cell.
        public var originRow: Int
        /// The terminal column (1-based) of the frame's left cell.
        public var originColumn: Int
        /// In truecolor, a cell is re-sent only when a channel of one of its pixels moved
        /// by more than this from what was last sent (0: any change). Video noise makes
        /// most cells differ a little in every frame; a small tolerance (4–8) cuts the bytes
        /// without a visible difference. Ignored in the 256-colour palette, which compares
        /// palette indexes.
        public var tolerance: UInt8

        /// Options; the defaults draw truecolor at the top left, synchronized.
        public init(colorMode: TerminalColorMode = .truecolor, synchronizedOutput: Bool = true,
                    originRow: Int = 1, originColumn: Int = 1, tolerance: UInt8 = 0) {
            self.colorMode = colorMode
            self.synchronizedOutput = synchronizedOutput
            self.originRow = max(originRow, 1)
            self.originColumn = max(originColumn, 1)
            self.tolerance = tolerance
        }
    }

    /// Begins a synchronized update (`CSI ?2026h`).
    public static let beginSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// Ends a synchronized update (`CSI ?2026l`).
    public static let endSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)

    /// How frames are drawn; changing it makes the next frame redraw every cell.
    public var options: Options {
        didSet { if options != oldValue { invalidate() } }
    }

    /// A cell key that matches no cell: colour keys use at most 24 bits each.
    private static let unknown = UInt64.max
    /// Worst case per cell: a cursor move, both colours in truecolor, the glyph.
    private static let maxBytesPerCell = 64

    private var columns = 0
    private var rows = 0
    /// Per cell, the colours last sent: top key << 32 | bottom key.
    private var sent: [UInt64] = []
    private var scratch: [UInt8] = []

    /// A renderer that has drawn nothing yet.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Forgets what was sent: the next frame redraws every cell.
    public mutating func invalidate() {
        for index in sent.indices { sent[index] = Self.unknown }
    }

    /// Forgets the cells in `rows` × `columns` (frame cell coordinates, 0-based), e.g. after
    /// an overlay was drawn over them. Parts outside the frame are ignored.
    public mutating func invalidate(rows: Range<Int>, columns: Range<Int>) {
        let rowRange = rows.clamped(to: 0..<self.rows)
        let columnRange = columns.clamped(to: 0..<self.columns)
        for row in rowRange {
            for column in columnRange { sent[row * self.columns + column] = Self.unknown }
        }
    }

    /// Appends the bytes that bring the terminal from the last frame to `frame`, and returns
    /// how many cells changed (0: nothing appended). A frame of a new size redraws every cell.
    @discardableResult
    public mutating func render(_ frame: RGBFrame, into out: inout [UInt8]) -> Int {
        frame.pixels.withUnsafeBufferPointer { pixels in
            render(width: frame.width, height: frame.height, stride: frame.stride, pixels: pixels, into: &out)
        }
    }

    /// ``render(_:into:)`` straight from a decoder's buffer: `height` rows of `stride` bytes
    /// of RGB24 at `pixels`.
    /// - Precondition: `pixels` holds them (the last row may end after `width * 3` bytes).
    @discardableResult
    public mutating func render(width: Int, height: Int, stride: Int, pixels: UnsafeBufferPointer<UInt8>,
                                into out: inout [UInt8]) -> Int {
        precondition(width >= 0 && height >= 0 && stride >= width * 3)
        precondition(height == 0 || pixels.count >= stride * (height - 1) + width * 3, "pixel buffer too small")
        let frameRows = (height + 1) / 2
        if width != columns || frameRows != rows {
            columns = width
            rows = frameRows
            sent = Array(repeating: Self.unknown, count: columns * rows)
        }
        let needed = columns * rows * Self.maxBytesPerCell + 64 + TerminalByteWriter.slack
        if scratch.count < needed { scratch = Array(repeating: 0, count: needed) }
        guard let source = pixels.baseAddress, columns > 0, rows > 0 else { return 0 }

        let options = options
        let tolerance = options.colorMode == .truecolor ? Int(options.tolerance) : 0
        var changed = 0
        let written = Self.byteDigitsPointer { digits in
            scratch.withUnsafeMutableBufferPointer { scratch in
                sent.withUnsafeMutableBufferPointer { sent in
                    var writer = TerminalByteWriter(base: scratch.baseAddress!, digits: digits)
                    var painter = CellPainter(options: options)
                    for row in 0..<rows {
                        let top = source + 2 * row * stride
                        let bottom: UnsafePointer<UInt8>? = 2 * row + 1 < height ? top + stride : nil
                        for column in 0..<columns {
                            let (topKey, bottomKey) = painter.keys(top: top + 3 * column, bottom: bottom.map { $0 + 3 * column })
                            let key = UInt64(topKey) << 32 | UInt64(bottomKey)
                            let cell = row * columns + column
                            if sent[cell] == key { continue }
                            if tolerance > 0, Self.isClose(sent[cell], key, within: tolerance) { continue }
                            sent[cell] = key
                            if changed == 0, options.synchronizedOutput { writer.bytes("\u{1B}[?2026h") }
                            changed += 1
                            painter.paint(row: row, column: column, top: topKey, bottom: bottomKey, with: &writer)
                        }
                    }
                    if changed > 0 {
                        writer.bytes("\u{1B}[0m")
                        if options.synchronizedOutput { writer.bytes("\u{1B}[?2026l") }
                    }
                    return writer.count
                }
            }
        }
        scratch.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<written])) }
        return changed
    }

    /// True when every channel of two truecolor cell keys differs by at most `tolerance`
    /// (never for a forgotten cell).
    @inline(__always)
    private static func isClose(_ old: UInt64, _ new: UInt64, within tolerance: Int) -> Bool {
        guard old != unknown else { return false }
        @inline(__always) func close(_ shift: UInt64) -> Bool {
            abs(Int(truncatingIfNeeded: (old >> shift) & 0xFF) - Int(truncatingIfNeeded: (new >> shift) & 0xFF)) <= tolerance
        }
        return close(0) && close(8) && close(16) && close(32) && close(40) && close(48)
    }

    private static func byteDigitsPointer<R>(_ body: (UnsafePointer<UInt32>) -> R) -> R {
        TerminalByteWriter.byteDigits.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
