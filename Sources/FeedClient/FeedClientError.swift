import Foundation
import OpenAPIRuntime

/// What a ``FeedClient`` call can fail with. Each description is one line.
public enum FeedClientError: Error, CustomStringConvertible, Sendable {
    /// The server refused: its problem details.
    case server(status: Int, problem: Problem)
    /// The server could not be reached or the connection broke (refused, reset, timed out).
    case transport(String)
    /// The server answered something the contract does not allow.
    case unexpected(String)
    /// A local file could not be read.
    case file(path: String, reason: String)
    /// The upload the client resumes is gone from the server (expired, deleted, another server).
    case uploadGone(String)

    /// The error `error` is, unwrapped from the generated client's `ClientError`.
    public init(_ error: any Error) {
        switch error {
        case let error as FeedClientError:
            self = error
        case let error as ClientError:
            if let inner = error.underlyingError as? FeedClientError {
                self = inner
            } else if error.response != nil {
                self = .unexpected("\(error.operationID): \(error.causeDescription): \(error.underlyingError)")
            } else {
                self = .transport("\(error.underlyingError)")
            }
        default:
            self = .transport("\(error)")
        }
    }

    /// How long the server asked to wait before trying again (`Retry-After`), if it did.
    public var retryAfter: Duration? {
        if case let .server(_, problem) = self, let seconds = problem.retryAfter { return .seconds(seconds) }
        return nil
    }

    /// The server's failure kind for ``server(status:problem:)`` (feed's server always names one;
    /// an answer without, from a proxy in front, is `io` for 5xx and `usage` otherwise: the `feed`
    /// CLI reads such a status through FeedCore's full table instead); for the others, the kind
    /// the CLI reports them as (`io`, `invalidData`, `missingInput`).
    public var kind: String {
        switch self {
        case let .server(status, problem): problem.kind ?? (status >= 500 ? "io" : "usage")
        case .transport: "io"
        case .unexpected: "invalidData"
        case .file: "missingInput"
        case .uploadGone: "notFound"
        }
    }

    /// Whether trying again may succeed: the network, a 5xx, 409 (a tus offset that moved), 423, 429.
    public var isTransient: Bool {
        switch self {
        case .transport: true
        case let .server(status, _): status >= 500 || status == 409 || status == 423 || status == 429
        case .unexpected, .file, .uploadGone: false
        }
    }

    public var description: String {
        switch self {
        case let .server(_, problem): problem.detail
        case let .transport(reason): reason
        case let .unexpected(reason): "unexpected answer: \(reason)"
        case let .file(path, reason): "\(path): \(reason)"
        case let .uploadGone(url): "\(url): the upload is no longer on the server"
        }
    }
}
