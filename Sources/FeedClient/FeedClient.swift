import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A client of `feed serve`: the typed client generated from `openapi.yaml` (``api``), with the
/// bearer token and problem details handled, plus what the document alone cannot give: resumable
/// uploads (``TusUploader``), a job followed to its end (``jobUpdates(id:)``) and a recording's
/// bytes (``recordingClip(id:)``).
///
/// The transport is the app's: `URLSessionTransport()` (swift-openapi-urlsession) on iOS and
/// macOS, `AsyncHTTPClientTransport()` (swift-openapi-async-http-client) on Linux.
///
/// ```swift
/// let feed = FeedClient(serverURL: URL(string: "http://192.168.1.20:8080")!, transport: URLSessionTransport())
/// let videos = try await feed.api.listVideos().ok.body.json.videos
/// ```
///
/// Every call that the server refuses throws ``FeedClientError/server(status:problem:)`` with the
/// server's RFC 9457 problem details; network failures throw ``FeedClientError/transport(_:)``.
public struct FeedClient: Sendable {
    /// The generated client: one method per `operationId` of the document.
    public let api: Client
    /// The server's base URL, as given.
    public let serverURL: URL

    /// A client of the server at `serverURL`. With `token`, every request carries
    /// `Authorization: Bearer TOKEN` (`feed serve --token`); a JSON answer over 32 MiB is
    /// refused (``FeedClientError/unexpected(_:)``). `middlewares` run after those.
    public init(serverURL: URL, transport: any ClientTransport, token: String? = nil,
                middlewares: [any ClientMiddleware] = []) {
        self.serverURL = serverURL
        var all: [any ClientMiddleware] = [ProblemMiddleware(), TusMetadataMiddleware()]
        if let token { all.append(BearerTokenMiddleware(token: token)) }
        all.append(ResponseLimitMiddleware())
        api = Client(serverURL: serverURL, configuration: Configuration(dateTranscoder: ISO8601Transcoder()),
                     transport: transport, middlewares: all + middlewares)
    }

    /// Runs `call`, turning the generated client's wrapped errors into a ``FeedClientError``.
    public func perform<T>(_ call: () async throws -> T) async throws(FeedClientError) -> T {
        do { return try await call() } catch { throw FeedClientError(error) }
    }
}
