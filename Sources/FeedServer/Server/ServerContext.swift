import FeedAccess
import Hummingbird
import NIOCore

/// The request context of feed's routes: Hummingbird's core context plus the connection,
/// so a fault injected on purpose (`X-Feed-Fault: drop-after=`) can close it mid-body.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's connection.
    public let channel: any Channel
    /// With `--rate`: where the caller's bucket stands after this request (the Pexels routes'
    /// `X-Ratelimit-*` headers say it); nil without a rate.
    public var rate: RateStanding?
    /// Who sent the request (``AccessMiddleware`` sets it before the route runs).
    public var caller: Caller = .nobody
    /// The request as ``RequestRecordMiddleware`` records it, for a route whose body streams
    /// (``RequestRecord/streamed(_:_:)``).
    var record: RequestRecord?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
