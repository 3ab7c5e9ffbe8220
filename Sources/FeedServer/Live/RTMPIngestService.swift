import FeedCore
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `feed serve --rtmp-port`: the RTMP listener publishers connect to, one
/// ``RTMPConnectionHandler`` per connection, as a service of the server's group: on shutdown it
/// stops accepting, ends every live channel (players get `EXT-X-ENDLIST`) and closes.
struct RTMPIngestService: Service {
    let host: String
    let port: Int
    let ingest: LiveIngest
    /// Told the bound port once the listener accepts (the real one for port 0).
    let onListening: @Sendable (Int) async -> Void

    func run() async throws {
        let ingest = self.ingest
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RTMPConnectionHandler(ingest: ingest))
                }
            }
            .bind(host: host, port: port).get()
        await onListening(channel.localAddress?.port ?? port)
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
        ingest.hub.endAll()
    }
}
