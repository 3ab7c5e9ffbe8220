import Foundation

/// Why a feed could not be loaded.
public enum FeedError: FeedFailure, LocalizedError, Equatable {
    /// The file does not exist.
    case missingFile(path: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The contents are wrong: not JSON, wrong type, missing field, negative count,
    /// malformed URL or unknown root.
    case invalid(FeedProblem)
    /// No video or post has this id.
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

    public var kind: FailureKind {
        switch self {
        case .missingFile: .missingInput
        case .unreadable: .io
        case .invalid: .invalidData
        case .unknownID: .notFound
        }
    }
}
