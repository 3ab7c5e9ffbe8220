import FeedCore
import Hummingbird

/// The one place a failure becomes an HTTP status and a JSON body:
/// `{"error":{"kind":"notFound","message":"…"}}`.
///
/// FeedCore's errors carry a ``FailureKind``; the server maps each kind to one status:
/// usage 400, invalidData 422, notFound 404, conflict 409, missingInput 404,
/// unavailable 503, bug 500, cannotCreate 500, io 500, interrupted 503.
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The kind as the body names it (a FailureKind's name, or an HTTP-level one such as `unauthorized`).
    public var kind: String
    /// One line saying what is wrong.
    public var message: String
    /// Extra response headers (e.g. `Content-Range` on a 416).
    public var headers: HTTPFields = [:]

    /// An error with this status, kind and message.
    public init(_ status: HTTPResponse.Status, kind: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.kind = kind
        self.message = message
        self.headers = headers
    }

    /// A FeedCore failure as the server reports it.
    public init(_ failure: any FeedFailure) {
        self.init(Self.status(of: failure.kind), kind: failure.kind.rawValue, failure.description)
    }

    /// The HTTP status of a failure kind.
    public static func status(of kind: FailureKind) -> HTTPResponse.Status {
        switch kind {
        case .usage: .badRequest
        case .invalidData: .unprocessableContent
        case .notFound, .missingInput: .notFound
        case .conflict: .conflict
        case .unavailable, .interrupted: .serviceUnavailable
        case .bug, .cannotCreate, .io: .internalServerError
        }
    }

    /// 400 with kind `usage`.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, kind: FailureKind.usage.rawValue, message) }
    /// 404 with kind `notFound`.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, kind: FailureKind.notFound.rawValue, message) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var out = Array(#"{"error":{"kind":"#.utf8)
        JSONBytes.string(kind, into: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONBytes.string(message, into: &out)
        out.append(contentsOf: "}}\n".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: out)))
    }
}
