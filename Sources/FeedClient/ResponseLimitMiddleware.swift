import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Bounds what the client reads of a JSON answer: past ``limit`` bytes (announced by
/// `Content-Length`, or counted as they arrive) the call fails with
/// ``FeedClientError/unexpected(_:)``, so a server that sends without end cannot fill the
/// client's memory. Media answers (`video/mp4`, `image/jpeg`…) stream as they come, unbounded.
struct ResponseLimitMiddleware: ClientMiddleware {
    /// The largest JSON answer read: a page of the roll or of jobs is a few hundred kB.
    static let limit = 32 << 20

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let responseBody, response.headerFields[.contentType]?.lowercased().contains("json") ?? true else {
            return (response, responseBody)
        }
        let what = "\(request.method.rawValue) \(request.path ?? "/")"
        let tooLarge = FeedClientError.unexpected("\(what): the server's answer is larger than \(Self.limit >> 20) MiB")
        if case let .known(length) = responseBody.length, length > Self.limit { throw tooLarge }
        let bounded = Bounded(base: responseBody, limit: Self.limit, tooLarge: tooLarge)
        return (response, HTTPBody(bounded, length: responseBody.length, iterationBehavior: responseBody.iterationBehavior))
    }

    /// `base`'s chunks, failing once more than `limit` bytes have passed.
    struct Bounded: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk
        let base: HTTPBody
        let limit: Int
        let tooLarge: FeedClientError

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPBody.AsyncIterator
            let limit: Int
            let tooLarge: FeedClientError
            var seen = 0

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                guard let chunk = try await base.next() else { return nil }
                seen += chunk.count
                if seen > limit { throw tooLarge }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), limit: limit, tooLarge: tooLarge)
        }
    }
}
