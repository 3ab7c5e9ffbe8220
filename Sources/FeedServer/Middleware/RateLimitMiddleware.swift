import Hummingbird
import NIOCore

/// With `--rate`, every request counts against its caller's bucket (``RateLimiter``): the caller
/// is its bearer token when it sends one, else its address. Past the rate: 429 with
/// `Retry-After` and problem details. Preflights (`OPTIONS`) do not count.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        let caller = request.headers[.authorization] ?? context.channel.remoteAddress?.ipAddress ?? "-"
        switch limiter.take(caller) {
        case let .allowed(remaining):
            var context = context
            let full = (limiter.burst - Double(remaining)) / limiter.rate
            context.rate = RateStanding(limit: Int(limiter.burst), remaining: remaining,
                                        reset: Int(limiter.now.rounded(.down)) + Int(full.rounded(.up)))
            return try await next(request, context)
        case let .refused(seconds):
            throw APIError(.tooManyRequests, kind: .usage,
                           "\(request.method.rawValue) \(request.uri.path): more than \(Self.shown(limiter.rate)) requests a second from this caller (--rate); retry after \(seconds) s",
                           headers: [.retryAfter: String(seconds)])
        }
    }

    /// `2`, `0.5`.
    static func shown(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}
