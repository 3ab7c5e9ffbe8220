import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer of 400 or more into ``FeedClientError/server(status:problem:)`` before the
/// generated code sees it, so callers read `.ok` and catch one error type for every refusal.
/// A body that is not problem details (a proxy's HTML page) becomes a problem with its status.
struct ProblemMiddleware: ClientMiddleware {
    /// Problem bodies are small; a larger one is cut here.
    static let limit = 64 * 1024

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes: [UInt8] = []
        if let responseBody {
            for try await chunk in responseBody {
                bytes += chunk.prefix(Self.limit - bytes.count)
                if bytes.count >= Self.limit { break }
            }
        }
        let what = "\(request.method.rawValue) \(request.path ?? "/")"
        var problem = Problem(json: bytes, status: response.status, request: what)
        problem.retryAfter = response.headerFields[.retryAfter].flatMap { Int($0) }
        throw FeedClientError.server(status: response.status.code, problem: problem)
    }
}
