import Hummingbird

/// With a token, every request that changes something (anything but GET, HEAD and OPTIONS)
/// needs `Authorization: Bearer <token>`; 401 otherwise.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if [.get, .head, .options].contains(request.method) || request.headers[.authorization] == "Bearer \(token)" {
            return try await next(request, context)
        }
        throw APIError(.unauthorized, kind: .unauthorized, "\(request.method.rawValue) \(request.uri.path): needs Authorization: Bearer <token>",
                       headers: [.wwwAuthenticate: "Bearer"])
    }
}
