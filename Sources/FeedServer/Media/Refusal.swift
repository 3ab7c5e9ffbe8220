import FeedCore
import HTTPTypes
import Hummingbird

/// Why a request is refused before any route sees it. ``MalformedRequestHandler`` decides it,
/// below Hummingbird, and marks the request with it (``field``) instead of answering there: the
/// request then takes its turn behind those before it on the connection, and
/// ``RefusalMiddleware`` answers it as every other error is answered, then the connection
/// closes. (Answered at once, a refusal overtook pipelined requests before it, or landed in the
/// middle of a streaming response.)
enum Refusal: String, CaseIterable, Sendable {
    case noHost = "no-host"
    case hosts = "hosts"
    case badHost = "bad-host"
    /// HTTP/1.0 has no chunked framing: a request with `Transfer-Encoding` is faulty (RFC 9112 §6.1).
    case transferEncoding10 = "te-1.0"
    case unparsable = "unparsable"
    case unknownMethod = "method"
    case version = "version"
    case headTooLarge = "head-size"
    case targetTooLong = "target-size"

    /// The internal request field that carries it; one a client sends itself is removed first.
    static let field = HTTPField.Name("X-Feed-Refused")!

    /// Its problem details; the request, when it could be read, is named as usual.
    func error(_ request: Request) -> APIError {
        var error = answer(request.label)
        // Hummingbird closes the connection after it (the request says so); the answer says it too.
        error.headers[.connection] = "close"
        return error
    }

    private func answer(_ label: String) -> APIError {
        let status = FaultMiddleware.status
        return switch self {
        case .noHost: APIError(.badRequest, kind: .usage, "\(label): an HTTP/1.1 request needs a Host header")
        case .hosts: APIError(.badRequest, kind: .usage, "\(label): more than one Host header")
        case .badHost: APIError(.badRequest, kind: .usage, "\(label): the Host header is not a host and port")
        case .transferEncoding10: APIError(.badRequest, kind: .usage, "\(label): an HTTP/1.0 request cannot have Transfer-Encoding")
        case .unparsable: APIError(.badRequest, kind: .usage, "the request cannot be parsed as HTTP/1.1")
        case .unknownMethod: APIError(status(501), kind: .usage, "the request's method is not one this server knows")
        case .version: APIError(status(505), kind: .usage, "the request's HTTP version is not 1.0 or 1.1")
        case .headTooLarge: APIError(status(431), kind: .tooLarge, "the request's head is larger than 80 KiB")
        case .targetTooLong: APIError(status(414), kind: .tooLarge, "the request's target (its path and query) is longer than 80 KiB")
        }
    }
}
