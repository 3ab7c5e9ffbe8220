import FeedCore
/// Emits one half-block cell at a time for ``HalfBlockRenderer``, remembering where the
/// cursor is and which colours are in effect, so it sends only the moves and colours a
/// cell needs.
struct CellPainter {
    private let truecolor: Bool
    private let originRow: Int
    private let originColumn: Int
    private var cursorRow = -1
    private var cursorColumn = -1
    /// The colour keys in effect; `.max` until this frame sets them (the terminal's state
    /// before the frame is unknown).
    private var foreground = UInt32.max
    private var background = UInt32.max

    init(options: HalfBlockRenderer.Options) {
        truecolor = options.colorMode == .truecolor
        originRow = options.originRow
        originColumn = options.originColumn
    }

    /// The colour keys of a cell's two pixels: 0xRRGGBB in truecolor, the palette index
    /// otherwise. A missing bottom pixel (odd frame height) is black.
    @inline(__always)
    func keys(top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>?) -> (UInt32, UInt32) {
        let topKey = key(top[0], top[1], top[2])
        guard let bottom else { return (topKey, key(0, 0, 0)) }
        return (topKey, key(bottom[0], bottom[1], bottom[2]))
    }

    @inline(__always)
    private func key(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        if truecolor { return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
        return UInt32(Palette256.index(red: r, green: g, blue: b))
    }

    /// Moves to the cell (frame coordinates, 0-based, left to right within a row) and draws it.
    @inline(__always)
    mutating func paint(row: Int, column: Int, top: UInt32, bottom: UInt32, with out: inout TerminalByteWriter) {
        if row != cursorRow {
            out.bytes("\u{1B}[")
            out.decimal(row + originRow)
            out.byte(UInt8(ascii: ";"))
            out.decimal(column + originColumn)
            out.byte(UInt8(ascii: "H"))
        } else if column != cursorColumn {
            out.bytes("\u{1B}[")
            if column - cursorColumn > 1 { out.decimal(column - cursorColumn) }
            out.byte(UInt8(ascii: "C"))
        }
        cursorRow = row
        cursorColumn = column + 1

        if top == bottom {
            // One colour: a space on the background or a full block in the foreground.
            if background == top {
                out.byte(0x20)
            } else if foreground == top {
                out.bytes("█")
            } else {
                setBackground(top, &out)
                out.byte(0x20)
            }
        } else if foreground == bottom && background == top {
            out.bytes("▄")
        } else {
            if foreground != top && background != bottom {
                setBoth(top, bottom, &out)
            } else if foreground != top {
                setForeground(top, &out)
            } else if background != bottom {
                setBackground(bottom, &out)
            }
            out.bytes("▀")
        }
    }

    private mutating func setBoth(_ top: UInt32, _ bottom: UInt32, _ out: inout TerminalByteWriter) {
        out.bytes("\u{1B}[")
        colour(38, top, &out)
        out.byte(UInt8(ascii: ";"))
        colour(48, bottom, &out)
        out.byte(UInt8(ascii: "m"))
        foreground = top
        background = bottom
    }

    private mutating func setForeground(_ key: UInt32, _ out: inout TerminalByteWriter) {
        out.bytes("\u{1B}[")
        colour(38, key, &out)
        out.byte(UInt8(ascii: "m"))
        foreground = key
    }

    private mutating func setBackground(_ key: UInt32, _ out: inout TerminalByteWriter) {
        out.bytes("\u{1B}[")
        colour(48, key, &out)
        out.byte(UInt8(ascii: "m"))
        background = key
    }

    /// `38;2;r;g;b` / `38;5;n` (or 48 for the background), without the CSI or the `m`.
    @inline(__always)
    private func colour(_ layer: UInt8, _ key: UInt32, _ out: inout TerminalByteWriter) {
        out.bytes(layer == 38 ? "38;" : "48;")
        if truecolor {
            out.bytes("2;")
            out.decimal(UInt8(truncatingIfNeeded: key >> 16))
            out.byte(UInt8(ascii: ";"))
            out.decimal(UInt8(truncatingIfNeeded: key >> 8))
            out.byte(UInt8(ascii: ";"))
            out.decimal(UInt8(truncatingIfNeeded: key))
        } else {
            out.bytes("5;")
            out.decimal(UInt8(truncatingIfNeeded: key))
        }
    }
}
