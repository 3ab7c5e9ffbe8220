import FeedCore
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Requests refused before they reach a route, answered as every other error is (problem
/// details, ``APIError``) with the status RFC 9110 and 9112 name, then the connection closed:
/// - a request head the parser cannot read: 400, or 501 for a method it does not know, 505 for
///   an HTTP version other than 1.0 and 1.1, 431 when the head is over the size limit. Without
///   this, Hummingbird answered each with a bare `400` and no body. (A body cut short is the
///   route's to see and answer, as before.)
/// - an HTTP/1.1 request without exactly one valid `Host` (RFC 9112 §3.2: "MUST respond with a
///   400"); routes would otherwise have answered it. A 1.0 request may leave `Host` out.
///
/// It sits below the conversion to HTTP types (put there by ``HTTP10Handler/Installer``), where the
/// version and every header line are still there, after the pipelining handler: a parse error
/// reaches it only once any response before it has ended, so its answer never interleaves.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a response has begun and not ended (nothing may be written then).
    private var responding = false
    /// Whether this connection's request was refused: what else it sends is dropped.
    private var refused = false
    /// Whether a request's head has gone on to the routes and its end not yet: a parse error
    /// then (a body cut short) is the route's to see, as it was.
    private var reading = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let problem = Self.hostProblem(request) {
                refused = true
                refuse(context: context, APIError(.badRequest, kind: .usage, "\(request.method.rawValue) \(Self.printable(request.uri)): \(problem)"))
                return
            }
            reading = true
        case .end:
            reading = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, !refused, !reading else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder closes the connection once this returns; the answer goes first. Not
        // passed on: Hummingbird would write its own bare 400 after it.
        refused = true
        guard !responding else {
            context.close(promise: nil)
            return
        }
        refuse(context: context, Self.answer(to: parse))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responding = true
        case .end: responding = false
        default: break
        }
        context.write(data, promise: promise)
    }

    /// Writes `error` as problem details with `Connection: close`, then closes.
    private func refuse(context: ChannelHandlerContext, _ error: APIError) {
        let body = error.body
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: error.status.code),
                                    headers: HTTPHeaders([("Content-Type", APIError.contentType), ("Content-Length", String(body.count)),
                                                          ("Connection", "close")]))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let loopBound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    /// The answer to a head the parser refused.
    static func answer(to error: HTTPParserError) -> APIError {
        func status(_ code: Int) -> HTTPResponse.Status { .init(code: code, reasonPhrase: FaultMiddleware.reasonPhrases[code] ?? "") }
        return switch error {
        case .headerOverflow:
            APIError(status(431), kind: .tooLarge, "the request's head is larger than 80 KiB")
        case .invalidMethod:
            APIError(status(501), kind: .usage, "the request's method is not one this server knows")
        case .invalidVersion:
            APIError(status(505), kind: .usage, "the request's HTTP version is not 1.0 or 1.1")
        default:
            APIError(.badRequest, kind: .usage, "the request cannot be parsed as HTTP/1.1 (\(error))")
        }
    }

    /// What is wrong with `request`'s `Host` (nil: nothing): HTTP/1.1 needs exactly one, a
    /// host and maybe a port (RFC 3986 §3.2.2).
    static func hostProblem(_ request: HTTPRequestHead) -> String? {
        let hosts = request.headers["host"]
        guard request.version != .http1_0 || !hosts.isEmpty else { return nil }
        guard hosts.count == 1, let host = hosts.first else {
            return hosts.isEmpty ? "an HTTP/1.1 request needs a Host header" : "more than one Host header"
        }
        // Empty is what a client sends for a target without an authority (§3.2).
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=:[]".utf8)
        guard host.utf8.allSatisfy(allowed.contains) else { return "the Host header is not a host and port" }
        return nil
    }

    /// `text` as one printable line, at most 200 characters.
    static func printable(_ text: String) -> String {
        let line = RequestRecordMiddleware.printable(text)
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
