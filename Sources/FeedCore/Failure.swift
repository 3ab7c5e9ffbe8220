/// The process exit statuses feed uses, sysexits style. The CLI documents them in `--help`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// One or more checks failed (e.g. `roll verify` found problems) but the input was readable.
    case failure = 1
    /// Bad command line.
    case usage = 64
    /// Bad input data: invalid JSON, wrong type, not a media file, unknown id.
    case dataError = 65
    /// An input file does not exist.
    case noInput = 66
    /// An internal error.
    case software = 70
    /// An output file or folder cannot be created.
    case cantCreate = 73
    /// Reading or writing failed.
    case ioError = 74
    /// Interrupted (SIGINT/SIGTERM); 128 + SIGINT.
    case interrupted = 130
}

/// Every typed error FeedCore throws (`FeedError`, `MediaError`, `RollError`, …) conforms,
/// so the CLI maps any of them to a one-line message and an exit status in one place.
public protocol FeedFailure: Error, CustomStringConvertible, Sendable {
    /// The exit status a command that fails with this error should end with.
    var exitStatus: ExitStatus { get }
}
