/// A plain-text table: aligned columns separated by two spaces, a header row, and at most one
/// flexible column that is cut (with "…") so each line fits a terminal's width.
///
/// Every command's table goes through this one writer, so they share one rule: only a free-text
/// column (a description, a title, an error message) may be flexible; the columns that identify
/// a row (ids, file names, URLs) are never cut, even when that makes a line wider than the
/// terminal. Without a width (stdout is not a terminal) nothing is cut at all.
struct Table {
    /// One column: its header and how its cells align.
    struct Column {
        var header: String
        var rightAligned = false
        /// The flexible column takes what the fixed ones leave and is cut to fit. Only for free
        /// text: never for a column that identifies the row.
        var flexible = false
    }

    var columns: [Column]
    var rows: [[String]] = []

    /// The table as text, newline-terminated. With a `width`, every line is at most that many
    /// columns unless the fixed columns alone are wider; with nil (output to a pipe or a file)
    /// no cell is cut.
    func render(width: Int?, style: Style) -> String {
        let separator = "  "
        var widths = columns.map { DisplayWidth.of($0.header) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(Printable.text(cell)))
            }
        }
        if let width, let flexible = columns.firstIndex(where: \.flexible) {
            let fixed = widths.enumerated().filter { $0.offset != flexible }.reduce(0) { $0 + $1.element }
            let available = width - fixed - separator.count * (columns.count - 1)
            // Never squeeze the flexible column below its header, even on a very narrow terminal.
            widths[flexible] = min(widths[flexible], max(available, DisplayWidth.of(columns[flexible].header)))
        }
        var out = ""
        out.reserveCapacity((rows.count + 1) * min(widths.reduce(0, +) + 2 * columns.count, 200))
        out += line(columns.map(\.header), widths: widths, style: style, header: true)
        for row in rows {
            out += line(row, widths: widths, style: style, header: false)
        }
        return out
    }

    private func line(_ cells: [String], widths: [Int], style: Style, header: Bool) -> String {
        var parts: [String] = []
        parts.reserveCapacity(cells.count)
        for (index, column) in columns.enumerated() {
            var cell = index < cells.count ? Printable.text(cells[index]) : ""
            if column.flexible { cell = DisplayWidth.truncate(cell, to: widths[index]) }
            let isLast = index == columns.count - 1
            // The last left-aligned cell is not padded: no trailing spaces.
            if !(isLast && !column.rightAligned) {
                cell = DisplayWidth.pad(cell, to: widths[index], rightAligned: column.rightAligned)
            }
            parts.append(header ? style.bold(cell) : cell)
        }
        return parts.joined(separator: "  ") + "\n"
    }
}
