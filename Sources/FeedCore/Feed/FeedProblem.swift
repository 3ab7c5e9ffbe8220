/// One located problem in a feed file: where it is and what is wrong.
public struct FeedProblem: Sendable, Equatable, CustomStringConvertible, Codable {
    /// Whether the problem stops the file from loading.
    public enum Severity: String, Sendable, Codable {
        /// The file cannot be loaded.
        case error
        /// The file loads, but something looks wrong (e.g. a duplicate id).
        case warning
    }

    /// The file name as given by the caller.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters (Unicode scalars) from the start of the line;
    /// a leading byte-order mark is not counted.
    public var column: Int
    /// The JSON path of the value: `"videos[3].likes"`, `"[4].media[0].url"`, `""` for the root.
    public var path: String
    /// What is wrong, e.g. `expected an integer, found "many"`.
    public var message: String
    /// Error or warning.
    public var severity: Severity

    /// Creates a problem.
    public init(file: String, line: Int, column: Int, path: String, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.severity = severity
    }

    /// One line: `videos.json:46:16: videos[3].likes: expected an integer, found "many"`;
    /// warnings read `FILE:LINE:COL: warning: PATH: message`.
    public var description: String {
        let location = "\(file):\(line):\(column): "
        let kind = severity == .warning ? "warning: " : ""
        let where_ = path.isEmpty ? "" : "\(path): "
        return location + kind + where_ + message
    }
}
