import Hummingbird

/// Answers a request ``MalformedRequestHandler`` marked as refused (``Refusal``) with its
/// problem details, before access checks or any route; the mark also asks for the connection
/// to close after the answer.
struct RefusalMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let mark = request.headers[Refusal.field] else { return try await next(request, context) }
        throw (Refusal(rawValue: mark) ?? .unparsable).error(request)
    }
}
