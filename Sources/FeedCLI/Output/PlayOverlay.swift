import Foundation
import FeedCore

/// What `feed play` draws around the video: the caption rows under it (username,
/// description, likes and viewers, a progress bar with the player's state), the comments and
/// the floating heart beside it, and the error card of a clip that failed.
struct PlayOverlay {
    /// Rows under the video reserved for the captions and the progress bar.
    static let reservedRows = 4

    var paused = false
    var muted = false
    var autoAdvance = false
    var showComments = false
    var liked = false
    var bookmarked = false
    /// When `l` was pressed: the heart floats up for a second.
    var heart: ContinuousClock.Instant?
    private(set) var commentCount = 0
    private var recent: [Comment] = []

    /// Adds a comment to the ticker (the last four show).
    mutating func push(_ comment: Comment) {
        recent.append(comment)
        if recent.count > 4 { recent.removeFirst() }
        commentCount += 1
    }

    /// True while the heart moves (the screen needs redrawing).
    mutating func tick(now: ContinuousClock.Instant) -> Bool {
        guard let heart else { return false }
        if now - heart > .seconds(1) {
            self.heart = nil
        }
        return true
    }

    /// Draws the captions under the video and the side items; returns the terminal rows
    /// (1-based) where side items overlap the video, which must be redrawn with the next frame.
    func draw(video: Video?, position: Int, count: Int, progress: Double, videoRight: Int,
              columns: Int, rows: Int, into out: inout [UInt8]) -> Range<Int> {
        let first = max(1, rows - Self.reservedRows + 1)
        let user = video.map { "@\($0.username)" } ?? "#\(position)"
        let marks = (liked ? "  \u{1B}[31m♥ liked\u{1B}[0m" : "") + (bookmarked ? "  \u{1B}[33m★ saved\u{1B}[0m" : "")
        line("\u{1B}[1m\(user)\u{1B}[0m\(marks)", row: first, columns: columns, into: &out)
        line(clip(video?.description ?? "", columns - 2), row: first + 1, columns: columns, into: &out)
        line("♥ \(video?.likes ?? 0)   👁 \(video?.viewers ?? 0)   \(position + 1)/\(count)", row: first + 2, columns: columns, into: &out)
        let state = [paused ? "❚❚ paused" : "▶", muted ? "muted" : "", autoAdvance ? "auto" : "loop"]
            .filter { !$0.isEmpty }.joined(separator: " ")
        let barWidth = max(0, columns - state.count - 3)
        let filled = Int(Double(barWidth) * max(0, min(1, progress)))
        let bar = String(repeating: "━", count: filled) + "\u{1B}[2m" + String(repeating: "─", count: barWidth - filled) + "\u{1B}[0m"
        line("\(bar) \(state)", row: first + 3, columns: columns, into: &out)

        // Comments and the heart go right of the video when there is room, else over its right edge.
        let sideColumn = columns - videoRight >= 24 ? videoRight + 2 : max(1, columns - 30)
        let sideWidth = max(8, columns - sideColumn)
        var top = first
        if showComments {
            for (offset, comment) in recent.reversed().enumerated() {
                let row = first - 2 - offset * 1
                guard row >= 1 else { break }
                text(pad(clip("\(comment.username): \(comment.comment)", sideWidth), sideWidth), row: row, column: sideColumn, into: &out)
                top = min(top, row)
            }
        }
        if let heart {
            let elapsed = ContinuousClock.now - heart
            let rise = Int(Double(elapsed.components.attoseconds) / 1e18 * Double(max(first - 2, 1)))
            let row = max(1, first - 1 - rise)
            text("\u{1B}[31m♥\u{1B}[0m", row: row, column: max(1, min(columns - 2, videoRight - 3)), into: &out)
            top = min(top, row)
        }
        return top..<first
    }

    /// A box in the middle of the screen saying why the clip cannot play.
    func errorCard(_ message: String, columns: Int, rows: Int, into out: inout [UInt8]) {
        let width = min(columns - 4, max(30, min(message.count + 4, 70)))
        let column = max(1, (columns - width) / 2 + 1)
        let row = max(1, rows / 2 - 3)
        let inner = width - 2
        text("┌" + String(repeating: "─", count: inner) + "┐", row: row, column: column, into: &out)
        text("│" + pad("\u{1B}[1;31m this clip cannot play\u{1B}[0m", inner, visible: 22) + "│", row: row + 1, column: column, into: &out)
        text("│" + pad(" " + clip(message, inner - 2), inner) + "│", row: row + 2, column: column, into: &out)
        text("│" + pad(" j: next   k: previous   q: quit", inner) + "│", row: row + 3, column: column, into: &out)
        text("└" + String(repeating: "─", count: inner) + "┘", row: row + 4, column: column, into: &out)
    }

    /// `string` at a position, colours reset first.
    func text(_ string: String, row: Int, column: Int, into out: inout [UInt8]) {
        out.append(contentsOf: "\u{1B}[\(row);\(column)H\u{1B}[0m\(string)".utf8)
    }

    private func line(_ string: String, row: Int, columns: Int, into out: inout [UInt8]) {
        out.append(contentsOf: "\u{1B}[\(row);1H\u{1B}[0m\u{1B}[2K \(string)".utf8)
    }

    private func clip(_ string: String, _ width: Int) -> String {
        let flat = string.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= width ? flat : String(flat.prefix(max(0, width - 1))) + "…"
    }

    private func pad(_ string: String, _ width: Int, visible: Int? = nil) -> String {
        string + String(repeating: " ", count: max(0, width - (visible ?? string.count)))
    }
}
