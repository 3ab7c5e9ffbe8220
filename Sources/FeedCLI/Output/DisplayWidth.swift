/// How many terminal columns text takes, so tables stay aligned with emoji and CJK in
/// descriptions. A small approximation of `wcwidth`: wide East Asian and emoji scalars take 2,
/// combining marks, variation selectors and zero-width joiners take 0, everything else 1.
enum DisplayWidth {
    /// Columns taken by `text` on a terminal.
    static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for scalar in text.unicodeScalars { width += of(scalar) }
        return width
    }

    /// Columns taken by one scalar: 0, 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || value == 0x200D { return 0 }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
        {
            return 2
        }
        return 1
    }

    /// `text` cut to at most `columns` columns, ending in "…" when something was cut.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` padded with spaces to `columns` columns, on the right (left-aligned) or the left.
    static func pad(_ text: String, to columns: Int, rightAligned: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, columns - of(text)))
        return rightAligned ? padding + text : text + padding
    }
}
