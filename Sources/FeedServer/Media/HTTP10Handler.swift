import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// HTTP/1.0 as RFC 9112 §9.3 wants it. Hummingbird sees requests as HTTP types, which carry no
/// version, so it answers every request as HTTP/1.1 would be answered: a 1.0 request (which
/// closes after its response unless it says `Connection: keep-alive`) was held open until the
/// idle timeout, and a body of unknown length (an event stream) was sent chunked, which a 1.0
/// client cannot read.
///
/// This handler sits just below the conversion to HTTP types, where the version is still known:
/// - a 1.0 request without `keep-alive` gets `Connection: close`, so Hummingbird closes the
///   connection after the response, as it does for a 1.1 request that says so;
/// - a response to a 1.0 request is a 1.0 response: one without a length is not chunked but
///   ends when the connection closes (`Connection: close`); one to a `keep-alive` request
///   that stays open says `Connection: keep-alive`.
///
/// HTTP/1.1 requests and responses pass unchanged. Requests are answered one at a time
/// (Hummingbird's pipelining assistance), in order, so each response's request is the oldest.
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

    /// The requests not yet answered, oldest first.
    private var waiting = CircularBuffer<Asked>()
    /// Whether the response being written is close-delimited: the connection closes after its end.
    private var closeAfterEnd = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let keepAlive = request.isKeepAlive
        waiting.append(Asked(version: request.version, keepAlive: keepAlive, head: request.method == .HEAD))
        if request.version == .http1_0 && !keepAlive {
            request.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.code >= 200 || response.status == .switchingProtocols:
            guard let asked = waiting.popFirst(), asked.version == .http1_0 else {
                context.write(data, promise: promise)
                return
            }
            response.version = .http1_0
            let bodiless = asked.head || response.status == .noContent || response.status == .notModified
            let delimited = !bodiless && !response.headers.contains(name: "content-length")
            if delimited || !asked.keepAlive || response.headers[canonicalForm: "connection"].contains("close") {
                response.headers.replaceOrAdd(name: "connection", value: "close")
                closeAfterEnd = delimited
            } else {
                response.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where closeAfterEnd:
            closeAfterEnd = false
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            context.write(data, promise: written)
            let loopBound = context.loopBound
            written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
        default:
            context.write(data, promise: promise)
        }
    }

    /// Puts a ``MalformedRequestHandler`` and an ``HTTP10Handler`` into the pipeline below the
    /// conversion to HTTP types (in that order, nearest the socket first), then removes itself:
    /// Hummingbird's `additionalChannelHandlers` sit above that conversion.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            do {
                let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
                try pipeline.addHandler(MalformedRequestHandler(), position: .before(codec))
                try pipeline.addHandler(HTTP10Handler(), position: .before(codec))
            } catch {
                // No such conversion (another server kind): nothing to do.
            }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
