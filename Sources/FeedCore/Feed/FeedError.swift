import Foundation

/// Why a feed could not be loaded; the CLI maps each case to an exit status.
public enum FeedError: FeedFailure, LocalizedError, Equatable {
    /// The file does not exist (exit 66).
    case missingFile(path: String)
    /// The file exists but cannot be read (exit 74).
    case unreadable(path: String, reason: String)
    /// The contents are wrong: not JSON, wrong type, missing field, negative count,
    /// malformed URL or unknown root (exit 65).
    case invalid(FeedProblem)
    /// No video or post has this id (exit 65); used by `feed show`.
    case unknownID(FeedID, source: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .invalid(let problem): problem.description
        case .unknownID(let id, let source): "\(source): no video or post has id \(id)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// 66 missing file, 74 unreadable, 65 for bad data and unknown ids.
    public var exitStatus: ExitStatus {
        switch self {
        case .missingFile: .noInput
        case .unreadable: .ioError
        case .invalid, .unknownID: .dataError
        }
    }
}
