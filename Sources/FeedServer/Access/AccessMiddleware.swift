import FeedAccess
import Hummingbird

/// Works out every request's ``Caller`` (``AccessControl``) before its route runs, and refuses
/// one that may not call the route: 401 without a valid bearer token, 403 with too narrow a
/// scope or a bad signed link. Paths no route has pass through to their 404 or 405.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let access: AccessControl

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
        context.caller = try await access.caller(of: request, rule: AccessRule.of(method: request.method.rawValue, route: route))
        return try await next(request, context)
    }
}
