import Hummingbird
import NIOCore

/// The request context of feed's routes: Hummingbird's core context plus the connection,
/// so a fault injected on purpose (`X-Feed-Fault: drop-after=`) can close it mid-body.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's connection.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
