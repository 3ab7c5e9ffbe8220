import FeedCore

/// The process exit statuses feed uses, sysexits style, documented in `feed --help`.
enum ExitStatus: Int32, CaseIterable {
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
    /// An internal error, or a missing component (FFmpeg's libraries).
    case software = 70
    /// An output file or folder cannot be created.
    case cantCreate = 73
    /// Reading or writing failed.
    case ioError = 74
    /// The server or catalog refused the credentials given (or none were).
    case noPermission = 77
    /// Interrupted (SIGINT/SIGTERM); 128 + SIGINT.
    case interrupted = 130

    /// The one place a FeedCore failure kind becomes an exit status.
    init(_ kind: FailureKind) {
        switch kind {
        case .usage: self = .usage
        case .invalidData, .notFound, .conflict, .tooLarge: self = .dataError
        case .missingInput: self = .noInput
        case .unavailable, .bug, .fault: self = .software
        case .cannotCreate: self = .cantCreate
        case .io: self = .ioError
        case .unauthorized, .forbidden: self = .noPermission
        case .interrupted: self = .interrupted
        }
    }
}
