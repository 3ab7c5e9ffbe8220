import FeedCore
import Hummingbird

/// Every error leaves the server as `{"error":{"kind":…,"message":…}}`: FeedCore failures by
/// their kind, Hummingbird's own (an unknown route, a body over the limit) by their status.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as any FeedFailure {
            throw APIError(error)
        } catch let error as any HTTPResponseError {
            let message = (error as? HTTPError)?.body ?? "\(request.method.rawValue) \(request.uri.path): \(error.status.reasonPhrase)"
            throw APIError(error.status, kind: Self.kind(of: error.status), message)
        } catch {
            throw APIError(.internalServerError, kind: FailureKind.bug.rawValue, "internal error: \(error)")
        }
    }

    static func kind(of status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: FailureKind.notFound.rawValue
        case 401: "unauthorized"
        case 405: "methodNotAllowed"
        case 413: "tooLarge"
        case 400..<500: FailureKind.usage.rawValue
        default: FailureKind.bug.rawValue
        }
    }
}
