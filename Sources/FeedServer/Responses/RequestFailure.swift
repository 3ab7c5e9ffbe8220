import Hummingbird
import FeedCore

/// A request the server refuses before any FeedCore call: a query parameter out of range, a
/// missing header, a path naming nothing. It carries a kind like every FeedCore failure, so
/// ``ErrorMiddleware`` gives it its status; no route picks a status itself.
struct RequestFailure: FeedFailure {
    var kind: FailureKind
    /// One line naming the parameter or header and what is accepted.
    var description: String

    init(_ kind: FailureKind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A malformed request (400).
    static func usage(_ message: String) -> RequestFailure { RequestFailure(.usage, message) }
    /// Nothing at this path (404).
    static func notFound(_ message: String) -> RequestFailure { RequestFailure(.notFound, message) }
}

/// A failure with response headers a protocol wants on it whatever it is (tus's
/// `Tus-Resumable`, `WWW-Authenticate`); ``ErrorMiddleware`` maps `failure` as usual and adds them.
struct FailureWithHeaders: Error {
    var failure: any Error
    var headers: HTTPFields
}
