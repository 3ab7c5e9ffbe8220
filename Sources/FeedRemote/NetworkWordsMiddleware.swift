import FeedClient
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Network failures of FeedClient's requests in ``NetworkFailure``'s words (`connection refused
/// (nothing listens at that address and port: is the server running?)`), as the rest of the
/// CLI says them, not AsyncHTTPClient's type names.
struct NetworkWordsMiddleware: ClientMiddleware {
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, baseURL)
        } catch let error as FeedClientError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The runtime hands the transport's error on wrapped in its ClientError.
            let cause = (error as? ClientError)?.underlyingError ?? error
            if let cause = cause as? FeedClientError { throw cause }
            throw FeedClientError.transport(NetworkFailure.reason(cause))
        }
    }
}
