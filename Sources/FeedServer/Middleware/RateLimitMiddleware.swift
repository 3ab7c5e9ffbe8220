import FeedAccess
import Hummingbird
import NIOCore

/// With `--rate`, every request counts against its caller's bucket (``RateLimiter``): the caller
/// is its user (a JWT's `sub`), or the admin token's holder, else its address (an open server,
/// a signed link). Past the rate: 429 with `Retry-After` and problem details. Preflights
/// (`OPTIONS`) do not count, nor requests refused before (401, 403), which ``AccessMiddleware`` answers first.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limiter: RateLimiter
    /// Whether a proxy's `Forwarded`/`X-Forwarded-For` names the caller's address.
    var trustProxy = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        let caller = Self.bucket(of: context.caller) ?? address(request, context)
        switch limiter.take(caller) {
        case let .allowed(remaining):
            var context = context
            let full = (limiter.burst - Double(remaining)) / limiter.rate
            context.rate = RateStanding(limit: Int(saturating: limiter.burst), remaining: remaining,
                                        reset: Int(saturating: limiter.now.rounded(.down)) &+ Int(saturating: full.rounded(.up)))
            return try await next(request, context)
        case let .refused(seconds):
            throw APIError(.tooManyRequests, kind: .usage,
                           "\(request.method.rawValue) \(request.uri.path): more than \(limiter.rate.shown) requests a second from this caller (--rate); retry after \(seconds) s",
                           headers: [.retryAfter: String(seconds)])
        }
    }

    /// The caller's address: the connection's, or with `--trust-proxy` the one the proxy forwards.
    func address(_ request: Request, _ context: Context) -> String {
        Self.address(request, context, trustProxy: trustProxy)
    }

    /// The address of `request`'s caller: the connection's, or with `trustProxy` the one a proxy forwards.
    static func address(_ request: Request, _ context: Context, trustProxy: Bool) -> String {
        if trustProxy, let client = ForwardedHeaders(request.headers).client { return client }
        return context.channel.remoteAddress?.ipAddress ?? "-"
    }

    /// The bucket of a caller who proved who they are: `user ID`, `admin`; nil for anyone else.
    static func bucket(of caller: Caller) -> String? {
        if let user = caller.user { return "user " + user }
        return caller.credential == .adminToken ? "admin" : nil
    }
}
