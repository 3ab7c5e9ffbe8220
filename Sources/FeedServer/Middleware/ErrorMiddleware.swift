import FeedCore
import Hummingbird
import NIOHTTP1

/// Every error leaves the server as problem details (``APIError``), and this is the only
/// place that decides its status: FeedCore failures (and ``RequestFailure``s) by their kind
/// (``APIError/status(of:)``), Hummingbird's own (an unknown route, a body over the limit) by
/// their status. A path no route has is 404; a path some route has, asked with a method none
/// answers, is 405 with `Allow`. Routes throw what they get; none catches to re-map.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Every route, for 405's `Allow`.
    let routes: RouteTable
    /// Where the whole message of an internal error goes (stderr unless `--quiet`); the client
    /// gets a line that names no path, host or database.
    let log: (@Sendable (String) -> Void)?
    /// The server's folders, cut out of every message a client gets.
    let paths: ServerPaths

    init(routes: RouteTable, paths: ServerPaths = ServerPaths(folders: []), log: (@Sendable (String) -> Void)? = nil) {
        self.routes = routes
        self.paths = paths
        self.log = log
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as FailureWithHeaders {
            var mapped = Self.map(error.failure, request)
            for field in error.headers { mapped.headers[field.name] = field.value }
            throw mapped
        } catch let error as HTTPError where error.status == .notFound && context.coreContext.endpointPath.value == "NotFound" {
            // No route took the request: its path is unknown, or its method is.
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty else { throw Self.map(error, request) }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(.methodNotAllowed, kind: .usage, "\(request.label): the methods here are \(allow)",
                           headers: [.allow: allow])
        } catch {
            var mapped = Self.map(error, request)
            guard mapped.status == .internalServerError, !(error is APIError) else {
                // A FeedCore failure names a file or an id, in the CLI's words: the file by its
                // name alone, no folder of the server's.
                mapped.message = paths.redact(mapped.message)
                throw mapped
            }
            // What failed inside (a database URL, a file path) is for the operator, not the client.
            log?("\(request.method.rawValue) \(request.uri.path): \(mapped.message)")
            throw APIError(mapped.status, kind: mapped.kind,
                           "\(request.label): internal error (the server's log has the details)")
        }
    }

    /// The response error for `error`.
    static func map(_ error: any Error, _ request: Request) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any FeedFailure:
            return APIError(error)
        case is HTTPParserError:
            // A body the HTTP parser could not read (a bad chunk size): the client's doing.
            return APIError(.badRequest, kind: .usage, "\(request.label): the request's body cannot be parsed as HTTP/1.1")
        case let error as any HTTPResponseError:
            let message = (error as? HTTPError)?.body ?? "\(request.label): \(error.status.reasonPhrase)"
            return APIError(error.status, kind: kind(of: error.status), message)
        default:
            return APIError(.internalServerError, kind: .bug, "internal error: \(error)")
        }
    }

    /// The kind of a status Hummingbird chose itself (``FailureKind/init(httpStatus:)``).
    static func kind(of status: HTTPResponse.Status) -> FailureKind {
        FailureKind(httpStatus: status.code)
    }
}
