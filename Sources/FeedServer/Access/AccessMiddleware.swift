import FeedAccess
import FeedCore
import Hummingbird

/// Works out every request's ``Caller`` (``AccessControl``) before its route runs, and refuses
/// one that may not call the route: 401 without a valid bearer token, 403 with too narrow a
/// scope or a bad signed link. Paths no route has pass through to their 404 or 405.
///
/// Refused credentials are rate-limited per address, `--rate` or not: a token that does not
/// verify, a signed link that does not match, a scope too narrow (not a request with no
/// credential at all). Past `refusalRate` a second (in bursts of as many), the address's
/// requests are 429 with `Retry-After` before any token is looked at, so a flood of bad tokens
/// costs a bucket lookup each, not a signature check.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let access: AccessControl
    /// Whether a proxy's `Forwarded`/`X-Forwarded-For` names the caller's address.
    var trustProxy = false
    /// The refusals each address has had lately; nil: not limited.
    let refusals: RateLimiter?

    init(access: AccessControl, trustProxy: Bool = false, refusalRate: Double? = ServerConfiguration().refusalRate,
         clock: any WallClock = SystemWallClock()) {
        self.access = access
        self.trustProxy = trustProxy
        refusals = refusalRate.map { RateLimiter(rate: $0, clock: clock) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // An open server lets everyone do everything: no route to look up on each request.
        if access.isOpen {
            context.caller = .open
            return try await next(request, context)
        }
        // The route the router took, as it names it before any middleware runs (HEAD on a GET
        // route included); none for a path or method no route has.
        guard let route = context.coreContext.endpointPath.value else {
            return try await next(request, context)
        }
        let address = RateLimitMiddleware.address(request, context, trustProxy: trustProxy)
        if let refusals, let seconds = refusals.wait(address) {
            throw APIError(.tooManyRequests, kind: .usage,
                           "\(request.method.rawValue) \(request.uri.path): more than \(refusals.rate.shown) refused "
                           + "credentials a second from this address (a wrong or expired token?); retry after \(seconds) s",
                           headers: [.retryAfter: String(seconds)])
        }
        do {
            context.caller = try await access.caller(of: request, rule: AccessRule.of(method: request.method.rawValue, route: route))
        } catch let error as APIError where error.status == .forbidden
                    || (error.status == .unauthorized && error.headers[.wwwAuthenticate] != "Bearer") {
            // Credentials that were looked at and refused (none at all is only a 401).
            _ = refusals?.take(address)
            throw error
        }
        return try await next(request, context)
    }
}
