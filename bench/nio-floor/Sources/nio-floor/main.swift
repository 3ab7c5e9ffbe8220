// nio-floor FILE [PORT]: the least a SwiftNIO server does to answer a byte range of one file, so
// that bench/serve.sh can tell how much of feed's distance to nginx is SwiftNIO's own.
//
// Per request it does what nginx does and nothing more: parse the head (NIO's HTTP/1 decoder),
// stat and open FILE, cork the connection (nginx's tcp_nopush), write the head and the
// `Range: bytes=FIRST-LAST` region with sendfile(2), uncork once the end has reached the socket.
// All of it on the connection's event loop: no router, no middleware, no Swift task, no
// validators, no access control. Any other request gets the whole file. It is a measurement
// peer, not a server: it reads only that one form of Range and trusts it.
//
// Prints `listening on PORT` once bound (PORT 0, the default, picks a free one).
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3, let port = Int(arguments.count == 3 ? arguments[2] : "0") else {
    let usage = "usage: nio-floor FILE [PORT]\n"
    _ = write(2, usage, usage.utf8.count)
    exit(64)
}
let path = arguments[1]

/// `TCP_CORK` as a NIO socket option.
let cork = ChannelOptions.Types.SocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_CORK))

/// Answers each request with FILE or the range of it that the request names.
final class RangeHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            if let request = head { respond(to: request, context: context) }
            head = nil
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        var info = stat()
        let descriptor = stat(path, &info) == 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1
        guard descriptor >= 0 else {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .notFound,
                                                                         headers: ["Content-Length": "0"]))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let size = Int(info.st_size)
        var (first, last, status) = (0, size - 1, HTTPResponseStatus.ok)
        var headers: HTTPHeaders = ["Content-Type": "video/mp4", "Accept-Ranges": "bytes"]
        if let range = request.headers.first(name: "range"), range.hasPrefix("bytes=") {
            let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            if bounds.count == 2, bounds[0] <= bounds[1], bounds[1] < size {
                (first, last, status) = (bounds[0], bounds[1], .partialContent)
                headers.add(name: "Content-Range", value: "bytes \(first)-\(last)/\(size)")
            }
        }
        headers.add(name: "Content-Length", value: String(last - first + 1))
        let file = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        let channel = context.channel
        _ = try? channel.syncOptions?.setOption(cork, value: 1)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.fileRegion(FileRegion(fileHandle: file, readerIndex: first, endIndex: last + 1)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            try? file.close()
            _ = try? channel.syncOptions?.setOption(cork, value: 0)
        }
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
let server = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false)
            try channel.pipeline.syncOperations.addHandler(RangeHandler())
        }
    }
    .bind(host: "127.0.0.1", port: port).wait()
print("listening on \(server.localAddress?.port ?? port)")
fflush(nil)
try server.closeFuture.wait()
