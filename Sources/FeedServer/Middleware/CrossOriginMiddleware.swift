import HTTPTypes
import Hummingbird

/// CORS (the Fetch standard's HTTP side), for pages on other origins: a web build of an app, a
/// dashboard, a browser tus client. `--cors ORIGIN` lists the origins allowed (`*`: any, only
/// without a token); on loopback with no token and no `--cors`, any (as json-server and tusd).
///
/// - A request with an allowed `Origin` gets `Access-Control-Allow-Origin` (the origin, or `*`)
///   and `Access-Control-Expose-Headers` naming what players and tus clients read (`Location`,
///   `Upload-Offset`, `Tus-*`, `Content-Range`, `ETag`, the rate headers …), on errors too: a
///   page must be able to read a 404's problem details.
/// - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
///   answered here, 204, before any token check: the methods, the headers asked for, and
///   `Access-Control-Max-Age`. From another origin it gets no CORS header, so the browser
///   refuses; a plain `OPTIONS` (tus discovery) goes on to its route.
struct CrossOriginMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// The origins allowed, as `scheme://host[:port]`, or `["*"]`.
    let origins: [String]

    /// What a page's script may read of a response (beyond the CORS-safelisted ones).
    static let exposed = ["Location", "Upload-Offset", "Upload-Length", "Upload-Expires", "Upload-Metadata",
                          "Tus-Resumable", "Tus-Version", "Tus-Extension", "Tus-Max-Size", "Content-Range",
                          "Content-Length", "Accept-Ranges", "ETag", "Allow", "WWW-Authenticate",
                          "X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset"].joined(separator: ", ")
    /// The methods a preflight is told about.
    static let methods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
    /// How long a browser may keep a preflight's answer: a day.
    static let maxAge = "86400"

    static let requestMethod = HTTPField.Name("Access-Control-Request-Method")!
    static let requestHeaders = HTTPField.Name("Access-Control-Request-Headers")!
    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let allowMethods = HTTPField.Name("Access-Control-Allow-Methods")!
    static let allowHeaders = HTTPField.Name("Access-Control-Allow-Headers")!
    static let exposeHeaders = HTTPField.Name("Access-Control-Expose-Headers")!
    static let maxAgeName = HTTPField.Name("Access-Control-Max-Age")!
    static let origin = HTTPField.Name("Origin")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[Self.origin] else { return try await next(request, context) }
        let allowed = allowedValue(for: origin)
        if request.method == .options, request.headers[Self.requestMethod] != nil {
            guard let allowed else {
                // Not an origin of ours: no CORS header, and the browser stops there.
                var headers: HTTPFields = [:]
                headers[.vary] = "Origin"
                return Response(status: .noContent, headers: headers)
            }
            var headers: HTTPFields = [:]
            headers[Self.allowOrigin] = allowed
            headers[Self.allowMethods] = Self.methods
            if let wanted = request.headers[Self.requestHeaders] { headers[Self.allowHeaders] = wanted }
            headers[Self.maxAgeName] = Self.maxAge
            headers[.vary] = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
            return Response(status: .noContent, headers: headers)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if let allowed {
            response.headers[Self.allowOrigin] = allowed
            response.headers[Self.exposeHeaders] = Self.exposed
        }
        // The answer depends on Origin unless every origin gets the same one.
        if origins != ["*"] {
            let vary = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
            response.headers[.vary] = vary
        }
        return response
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    func allowedValue(for origin: String) -> String? {
        if origins == ["*"] { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}
