import FeedCore

/// One located problem as a line: `FILE:LINE:COL: PATH: message`, warnings marked
/// `FILE:LINE:COL: warning: PATH: message` (the compiler convention editors understand).
enum ProblemLine {
    /// The line without a trailing newline.
    static func text(_ problem: FeedProblem, style: Style) -> String {
        let location = style.bold("\(problem.file):\(problem.line):\(problem.column):")
        let mark = problem.severity == .warning ? " " + style.yellow("warning:") : ""
        let path = problem.path.isEmpty ? "" : " \(problem.path):"
        return URLCredentials.redacted(inText: location + mark + path + " " + problem.message)
    }

    /// Writes a feed's warnings to stderr as `feed: FILE:LINE:COL: warning: …` lines.
    static func warn(_ problems: [FeedProblem]) throws(OutputError) {
        guard !problems.isEmpty else { return }
        let style = Style(enabled: Terminal.usesColor(.error))
        try StandardStream.error.write(problems.map { "feed: " + text($0, style: style) + "\n" }.joined())
    }
}
