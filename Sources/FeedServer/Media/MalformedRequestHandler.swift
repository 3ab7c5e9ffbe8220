import NIOCore
import NIOHTTP1

/// Finds the requests to refuse before any route sees them, and marks each with its
/// ``Refusal`` (and `Connection: close`) for ``RefusalMiddleware`` to answer in its turn:
/// - a request head the parser cannot read: 400, or 501 for a method it does not know (in a
///   line shaped as a request line: a connection's first line that is not one is 400), 505 for
///   an HTTP version other than 1.0 and 1.1, 414 when the request line alone is over the size
///   limit, else 431 when the head is (Hummingbird answered each with a bare `400` and no body;
///   ``WireHandler`` keeps the lines' starts that tell these apart);
/// - an HTTP/1.1 request without exactly one `Host` that is a host and maybe a port: 400, as RFC
///   9112 §3.2 requires (a 1.0 request may leave `Host` out);
/// - an HTTP/1.0 request with `Transfer-Encoding`, framing 1.0 does not have: 400 (§6.1).
///
/// A parse error is passed to the request as a head and an end that stand for it, so it is
/// answered after every request before it, as a Host refusal is. Nothing the client sends after
/// a refusal is read on. A body cut short mid-request is the route's to see, as before.
///
/// It sits below the conversion to HTTP types (put there by ``HTTP1HandlersInstaller``), where
/// the version and every header line are still there.
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The connection's bytes: the lines a refused head is told by.
    private let wire: WireHandler
    /// Whether a request head has been read on this connection.
    private var seenHead = false
    /// Whether a refusal was passed on: nothing after it is.
    private var refused = false

    init(wire: WireHandler) {
        self.wire = wire
    }
    /// Whether a request's head has gone on and its end not yet.
    private var reading = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(var request):
            seenHead = true
            wire.forgetLongLine()
            // The mark is this handler's alone.
            request.headers.remove(name: Refusal.field.rawName)
            if let refusal = Self.refusal(request) {
                pass(refusal, as: request, context: context)
                return
            }
            reading = true
            context.fireChannelRead(wrapInboundOut(.head(request)))
        case .end:
            reading = false
            context.fireChannelRead(data)
        case .body:
            context.fireChannelRead(data)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a refusal the decoder reports every later byte as an error: nothing is read on.
        if refused, error is HTTPParserError || error is ByteToMessageDecoderError { return }
        guard let parse = error as? HTTPParserError, !reading else {
            context.fireErrorCaught(error)
            return
        }
        let refusal: Refusal = switch parse {
        // Still in the request line (the line being received is one): its target is too long.
        case .headerOverflow: wire.requestLineOverflows() ? .targetTooLong : .headTooLarge
        // A connection's first line that is not a request line at all is garbage, not a method.
        case .invalidMethod: seenHead || WireHandler.looksLikeRequestLine(wire.first) ? .unknownMethod : .unparsable
        case .invalidVersion: .version
        default: .unparsable
        }
        pass(refusal, as: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/"), context: context)
        context.fireChannelReadComplete()
    }

    /// Passes `request` on marked with `refusal`, with no body, and stops reading on.
    private func pass(_ refusal: Refusal, as request: HTTPRequestHead, context: ChannelHandlerContext) {
        refused = true
        var request = request
        request.headers.replaceOrAdd(name: Refusal.field.rawName, value: refusal.rawValue)
        request.headers.replaceOrAdd(name: "connection", value: "close")
        request.headers.remove(name: "content-length")
        request.headers.remove(name: "transfer-encoding")
        context.fireChannelRead(wrapInboundOut(.head(request)))
        context.fireChannelRead(wrapInboundOut(.end(nil)))
    }

    /// Why `request` is refused, if it is.
    static func refusal(_ request: HTTPRequestHead) -> Refusal? {
        if request.version == .http1_0 && request.headers.contains(name: "transfer-encoding") { return .transferEncoding10 }
        let hosts = request.headers["host"]
        guard let host = hosts.first else { return request.version == .http1_0 ? nil : .noHost }
        guard hosts.count == 1 else { return .hosts }
        return isHostAndPort(host.trimmingCharacters(in: [" ", "\t"])) ? nil : .badHost
    }

    /// Whether `text` is `host [":" port]` (RFC 3986 §3.2.2-3): an IP literal in brackets, or a
    /// name or IPv4 address of unreserved, percent and sub-delimiter characters; a port of digits.
    static func isHostAndPort(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return false }
            let literal = rest[rest.index(after: rest.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0 != ":" }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=".utf8)
            guard !name.isEmpty, name.utf8.allSatisfy(allowed.contains) else { return false }
            rest = rest[name.endIndex...]
        }
        guard let colon = rest.first else { return true }
        return colon == ":" && rest.dropFirst().utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
