import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import Testing
@testable import FeedServer
#if canImport(Glibc)
import Glibc
#endif

/// The handler on a real loopback TCP connection, in the pipeline Hummingbird builds (HTTP/1
/// encoder, HTTP types codec, then it): the socket's own `TCP_CORK` is read back at each step.
@Suite("TCPCorkHandler (full segments for large responses)")
struct TCPCorkHandlerTests {
    /// A connected pair: the server's child channel (with the handler) and a client that reads and drops everything.
    static func connection(_ group: MultiThreadedEventLoopGroup) async throws -> (server: any Channel, client: any Channel) {
        let accepted = group.next().makePromise(of: (any Channel).self)
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try channel.pipeline.syncOperations.addHandler(TCPCorkHandler())
                    accepted.succeed(channel)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: group).connect(to: listener.localAddress!).get()
        let server = try await accepted.futureResult.get()
        try await listener.close()
        return (server, client)
    }

    static func corked(_ channel: any Channel) async throws -> Bool {
        try await channel.getOption(TCPCorkHandler.option).get() != 0
    }

    static func head(length: Int, status: HTTPResponse.Status = .ok) -> HTTPResponsePart {
        .head(HTTPResponse(status: status, headerFields: [.contentLength: String(length)]))
    }

    @Test("a large body: corked from its head until its end is in the socket, then uncorked")
    func large() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (server, client) = try await Self.connection(group)
        let length = 3 * TCPCorkHandler.threshold
        #expect(try await Self.corked(server) == false)
        try await server.writeAndFlush(Self.head(length: length)).get()
        #expect(try await Self.corked(server))
        try await server.writeAndFlush(HTTPResponsePart.body(ByteBuffer(repeating: 7, count: length))).get()
        #expect(try await Self.corked(server))
        try await server.writeAndFlush(HTTPResponsePart.end(nil)).get()
        #expect(try await Self.corked(server) == false)
        // The next large response on the same connection is corked again.
        try await server.writeAndFlush(Self.head(length: length)).get()
        #expect(try await Self.corked(server))
        try await server.writeAndFlush(HTTPResponsePart.body(ByteBuffer(repeating: 8, count: length))).get()
        try await server.writeAndFlush(HTTPResponsePart.end(nil)).get()
        #expect(try await Self.corked(server) == false)
        try await client.close()
        try await server.closeFuture.get()
        try await group.shutdownGracefully()
    }

    @Test("small bodies, no length, 304 and 204 are never corked")
    func small() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (server, client) = try await Self.connection(group)
        let heads: [HTTPResponsePart] = [
            Self.head(length: TCPCorkHandler.threshold - 1),
            .head(HTTPResponse(status: .ok)),
            Self.head(length: 1 << 20, status: .notModified),
        ]
        for head in heads {
            try await server.writeAndFlush(head).get()
            #expect(try await Self.corked(server) == false)
            try await server.writeAndFlush(HTTPResponsePart.end(nil)).get()
        }
        #expect(TCPCorkHandler.isLarge(HTTPResponse(status: .partialContent, headerFields: [.contentLength: "65536"])))
        #expect(!TCPCorkHandler.isLarge(HTTPResponse(status: .noContent, headerFields: [.contentLength: "65536"])))
        #expect(!TCPCorkHandler.isLarge(HTTPResponse(status: .ok, headerFields: [.contentLength: "lots"])))
        try await client.close()
        try await server.closeFuture.get()
        try await group.shutdownGracefully()
    }
}
