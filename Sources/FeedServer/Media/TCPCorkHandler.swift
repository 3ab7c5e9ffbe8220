import HTTPTypes
import NIOCore
import NIOHTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// Sends a large response in full-size TCP segments, its head in the first: nginx's
/// `tcp_nopush`. Between the head of a response with a body of at least ``threshold`` bytes and
/// the moment its end has been written to the socket, the connection is corked (`TCP_CORK`), so
/// the kernel sends only full segments; uncorking pushes the last partial one at once.
///
/// Without it the head left as a segment of its own (the connection has `TCP_NODELAY`), and a
/// `sendfile(2)` body went out in whatever sizes the receive window opened to: under
/// `bench/serve.sh`'s 1 MiB ranges, `nstat` counted 25.3 data segments per range against
/// nginx's 18.8, and the client woke once more per response for the head alone.
///
/// It sits in the channel pipeline below Hummingbird's handler, so the head, the body (a
/// ``FileResponse`` writes its file region further down, in between) and the end pass it in
/// order on the connection's event loop: no extra hop. Small responses are left alone: they fit
/// in one segment, and corking them would only add two system calls.
final class TCPCorkHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The smallest announced body that is corked: a few segments' worth.
    static let threshold = 64 * 1024

    /// `TCP_CORK` as a NIO socket option.
    static let option = ChannelOptions.Types.SocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_CORK))

    /// Whether this connection is corked now (between a large head and its end).
    private var corked = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if !corked, Self.isLarge(head), Self.set(context.channel, corked: true) { corked = true }
            context.write(data, promise: promise)
        case .end where corked:
            // The end's promise is fulfilled once everything before it (the file region too) is in
            // the socket; only then may the last partial segment go.
            corked = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { [channel = context.channel] _ in _ = Self.set(channel, corked: false) }
            if let promise { written.futureResult.cascade(to: promise) }
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    /// A response whose `Content-Length` announces at least ``threshold`` bytes of body.
    static func isLarge(_ head: HTTPResponse) -> Bool {
        guard head.status.code != 304, head.status.code != 204, let length = head.headerFields[.contentLength].flatMap({ Int($0) }) else {
            return false
        }
        return length >= threshold
    }

    /// Sets `TCP_CORK`; false when the socket refused it (a closed connection: nothing to do).
    private static func set(_ channel: any Channel, corked: Bool) -> Bool {
        guard let options = channel.syncOptions else { return false }
        do {
            try options.setOption(option, value: corked ? 1 : 0)
            return true
        } catch {
            return false
        }
    }
}
