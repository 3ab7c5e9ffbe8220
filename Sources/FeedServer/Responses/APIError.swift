import FeedCore
import Hummingbird

/// The one place a failure becomes an HTTP status and a body: RFC 9457 problem details,
/// `application/problem+json`, the same for every route:
/// `{"type":"about:blank","title":"Not Found","status":404,"detail":"…","kind":"notFound"}`.
/// `title` is the status's reason phrase (as `about:blank` asks); `kind`, an extension member,
/// is the ``FailureKind``, the word a client branches on (the CLI's exit codes map the same kinds).
///
/// Every failure's ``FailureKind`` has one status (``status(of:)``), applied by
/// ``ErrorMiddleware`` alone: routes throw FeedCore's errors (or a ``RequestFailure``) as they
/// are. An `APIError` is built directly only where a protocol fixes the status itself: a range
/// outside the file (416), tus's version and content type (412, 415), an injected fault.
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The kind the body names.
    public var kind: FailureKind
    /// One line saying what is wrong.
    public var message: String
    /// Extra response headers (e.g. `Content-Range` on a 416).
    public var headers: HTTPFields = [:]

    /// An error with this status, kind and message.
    public init(_ status: HTTPResponse.Status, kind: FailureKind, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.kind = kind
        self.message = message
        self.headers = headers
    }

    /// A failure as the server reports it: its kind's status, its message.
    public init(_ failure: any FeedFailure) {
        self.init(Self.status(of: failure.kind), kind: failure.kind, failure.description)
    }

    /// The HTTP status of a failure kind (``FailureKind/httpStatus``, the one table), with its
    /// reason phrase (the status line's words and the problem's `title`).
    public static func status(of kind: FailureKind) -> HTTPResponse.Status {
        let code = kind.httpStatus
        return named.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }

    /// The statuses the table gives, as HTTPTypes names them (their reason phrases).
    private static let named: [HTTPResponse.Status] = [
        .badRequest, .unauthorized, .forbidden, .notFound, .conflict, .contentTooLarge, .unprocessableContent,
        .internalServerError, .serviceUnavailable,
    ]

    /// The media type of the body.
    public static let contentType = "application/problem+json"

    /// The problem details object, one line.
    public var body: [UInt8] {
        var out = Array(#"{"type":"about:blank","title":"#.utf8)
        JSONBytes.string(status.reasonPhrase, into: &out)
        out.append(contentsOf: #","status":\#(status.code),"detail":"#.utf8)
        JSONBytes.string(message, into: &out)
        out.append(contentsOf: #","kind":"#.utf8)
        JSONBytes.string(kind.rawValue, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = Self.contentType
        let body = self.body
        // A HEAD answer says how long the GET's would be, and carries none.
        guard request.method != .head else {
            fields[.contentLength] = String(body.count)
            return Response(status: status, headers: fields, body: .init())
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
