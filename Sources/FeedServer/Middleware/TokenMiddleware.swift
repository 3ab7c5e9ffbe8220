import Hummingbird

/// With a token, every request that changes something (anything but GET, HEAD and OPTIONS)
/// needs `Authorization: Bearer <token>`; 401 otherwise.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if [.get, .head, .options].contains(request.method) {
            return try await next(request, context)
        }
        // Compared in constant time: how long a refusal takes says nothing of the token.
        let given = request.headers[.authorization]
        if let given, ConstantTime.equal(given.utf8, "Bearer \(token)".utf8) {
            return try await next(request, context)
        }
        // RFC 6750 §3: a token that was given and is wrong is `invalid_token`.
        throw APIError(.unauthorized, kind: .unauthorized,
                       "\(request.method.rawValue) \(request.uri.path): \(given == nil ? "needs" : "a wrong token; needs") Authorization: Bearer <token>",
                       headers: [.wwwAuthenticate: given == nil ? "Bearer" : #"Bearer error="invalid_token""#])
    }
}
