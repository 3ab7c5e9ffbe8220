import FeedCore
import Hummingbird

/// Every error leaves the server as `{"error":{"kind":…,"message":…}}`, and this is the only
/// place that decides its status: FeedCore failures (and ``RequestFailure``s) by their kind
/// (``APIError/status(of:)``), Hummingbird's own (an unknown route, a body over the limit) by
/// their status. Routes throw what they get; none catches to re-map.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as FailureWithHeaders {
            var mapped = Self.map(error.failure, request)
            for field in error.headers { mapped.headers[field.name] = field.value }
            throw mapped
        } catch {
            throw Self.map(error, request)
        }
    }

    /// The response error for `error`.
    static func map(_ error: any Error, _ request: Request) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any FeedFailure:
            return APIError(error)
        case let error as any HTTPResponseError:
            let message = (error as? HTTPError)?.body ?? "\(request.method.rawValue) \(request.uri.path): \(error.status.reasonPhrase)"
            return APIError(error.status, kind: kind(of: error.status), message)
        default:
            return APIError(.internalServerError, kind: .bug, "internal error: \(error)")
        }
    }

    /// The kind of a status Hummingbird chose itself.
    static func kind(of status: HTTPResponse.Status) -> FailureKind {
        switch status.code {
        case 404: .notFound
        case 401: .unauthorized
        case 413: .tooLarge
        case 400..<500: .usage
        default: .bug
        }
    }
}
