import NIOCore
import NIOHTTPTypesHTTP1

/// Puts a ``MalformedRequestHandler`` and an ``HTTP10Handler`` into the pipeline below the
/// conversion to HTTP types (in that order, nearest the socket first), and a ``WireHandler``
/// they share nearest the socket, then removes itself: Hummingbird's
/// `additionalChannelHandlers` sit above that conversion.
final class HTTP1HandlersInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            let wire = WireHandler()
            try pipeline.addHandler(wire, position: .first)
            try pipeline.addHandler(MalformedRequestHandler(wire: wire), position: .before(codec))
            try pipeline.addHandler(HTTP10Handler(wire: wire), position: .before(codec))
        } catch {
            // No such conversion (another server kind): nothing to do.
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
