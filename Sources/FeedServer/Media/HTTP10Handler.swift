import NIOCore
import NIOHTTP1

/// HTTP/1.0 as RFC 9112 §9.3 wants it, and `Connection: close` in any form. Hummingbird sees
/// requests as HTTP types, which carry no version, so it answered every request as HTTP/1.1
/// would be answered: a 1.0 request (which closes after its response unless it says
/// `Connection: keep-alive`) was held open until the idle timeout, and a body of unknown length
/// (an event stream) was sent chunked, which a 1.0 client cannot read. And it closes only on
/// exactly `Connection: close`, not `Close` or `close, te`.
///
/// This handler sits just below the conversion to HTTP types, where the version is still known:
/// - a request that does not keep the connection alive (1.0 without `keep-alive`, or any that
///   says `close`) gets exactly `Connection: close`, so Hummingbird closes the connection after
///   the response;
/// - a 1.0 request's `Expect` is dropped (RFC 9110 §10.1.1: 1.0 has no `100 Continue`);
/// - a response to a 1.0 request is framed as 1.0 frames it: one without a length is not chunked
///   but ends when the connection closes (`Connection: close`); one to a `keep-alive` request
///   that stays open says `Connection: keep-alive`. Its status line says `HTTP/1.1`, the
///   version this server speaks (RFC 9112 §2.3, as nginx answers), restamped by ``WireHandler``. What the client sent after a 1.0
///   `keep-alive` request waits here until its response has ended, and is dropped when that
///   response closed the connection (§9.6: nothing after `close` is processed).
///
/// HTTP/1.1 responses pass unchanged. Hummingbird answers requests one at a time, in order, so
/// each response's request is the oldest one unanswered.
final class HTTP10Handler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What a response needs of its request.
    private struct Asked {
        var version: HTTPVersion
        var keepAlive: Bool
        var head: Bool
    }

    /// The most bytes held back behind a 1.0 `keep-alive` request before the connection is closed.
    static let heldLimit = 1 << 20

    /// The requests not yet answered, oldest first.
    private var waiting = CircularBuffer<Asked>()
    /// Whether the response being written is close-delimited: the connection closes after its end.
    private var closeAfterEnd = false
    /// Whether the request being read is a 1.0 `keep-alive` one: what follows its end is held.
    private var holdAfterEnd = false
    /// Whether reads are held back until the current response ends.
    private var holding = false
    /// What was held back, in order, and its size.
    private var held: [NIOAny] = []
    private var heldBytes = 0
    /// Whether the connection is closing: nothing more is read on.
    private var closing = false
    /// Restamps the heads of 1.0 responses as 1.1.
    private let wire: WireHandler

    init(wire: WireHandler) {
        self.wire = wire
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        guard !holding else {
            held.append(data)
            if case .body(let bytes) = unwrapInboundIn(data) { heldBytes += bytes.readableBytes }
            if heldBytes > Self.heldLimit {
                closing = true
                held.removeAll()
                context.close(promise: nil)
            }
            return
        }
        switch unwrapInboundIn(data) {
        case .head(var request):
            let keepAlive = request.isKeepAlive
            waiting.append(Asked(version: request.version, keepAlive: keepAlive, head: request.method == .HEAD))
            if !keepAlive { request.headers.replaceOrAdd(name: "connection", value: "close") }
            if request.version == .http1_0 { request.headers.remove(name: "expect") }
            holdAfterEnd = request.version == .http1_0 && keepAlive
            context.fireChannelRead(wrapInboundOut(.head(request)))
        case .end:
            holding = holdAfterEnd
            holdAfterEnd = false
            context.fireChannelRead(data)
        case .body:
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.code >= 200 || response.status == .switchingProtocols:
            guard let asked = waiting.popFirst(), asked.version == .http1_0 else {
                context.write(data, promise: promise)
                return
            }
            // Encoded as 1.0 (no chunks: the close ends a body of unknown length), sent as 1.1.
            response.version = .http1_0
            wire.restampNext = true
            let bodiless = asked.head || response.status == .noContent || response.status == .notModified
            let delimited = !bodiless && !response.headers.contains(name: "content-length")
            if delimited || !asked.keepAlive || response.headers[canonicalForm: "connection"].contains("close") {
                response.headers.replaceOrAdd(name: "connection", value: "close")
                closeAfterEnd = delimited
            } else {
                response.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end:
            let close = closeAfterEnd
            closeAfterEnd = false
            guard close else {
                context.write(data, promise: promise)
                release(context: context)
                return
            }
            closing = true
            holding = false
            held.removeAll()
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            context.write(data, promise: written)
            let loopBound = context.loopBound
            written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
        default:
            context.write(data, promise: promise)
        }
    }

    /// Passes on what was held back while a response was written, as if it came now: the next
    /// 1.0 `keep-alive` request's end holds the rest again.
    private func release(context: ChannelHandlerContext) {
        guard holding else { return }
        holding = false
        let parts = held
        held.removeAll()
        heldBytes = 0
        for part in parts { channelRead(context: context, data: part) }
        if !parts.isEmpty { context.fireChannelReadComplete() }
    }
}
