import FeedCore

/// Comments as `username: comment` lines or JSON.
enum CommentLines {
    /// One comment as a line (newline-terminated) in `mode`; `.json` and `.ndjson` both give one object.
    static func line(_ comment: Comment, mode: OutputFormat.Mode, style: Style) -> [UInt8] {
        switch mode {
        case .text:
            return Array((style.bold(Printable.text(comment.username)) + ": " + Printable.text(VideoList.oneLine(comment.comment)) + "\n").utf8)
        case .json, .ndjson:
            var out: [UInt8] = []
            JSONOutput.encode(comment, into: &out)
            out.append(UInt8(ascii: "\n"))
            return out
        }
    }

    /// All `comments` in `mode`: lines, one JSON array, or one object per line.
    static func all(_ comments: [Comment], mode: OutputFormat.Mode, style: Style) -> [UInt8] {
        guard mode == .json else { return comments.flatMap { line($0, mode: mode, style: style) } }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, comment) in comments.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONOutput.encode(comment, into: &out)
        }
        out += [UInt8(ascii: "]"), UInt8(ascii: "\n")]
        return out
    }
}
