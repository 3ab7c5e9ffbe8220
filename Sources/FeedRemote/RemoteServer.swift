import AsyncHTTPClient
import FeedClient
import FeedCore
import Foundation
import NIOCore
import OpenAPIAsyncHTTPClient

/// A `feed serve` the CLI talks to (`feed push`, `feed remote …`): a ``FeedClient`` over
/// AsyncHTTPClient, with its own HTTP client so that ``shutdown()`` ends every connection.
public final class RemoteServer: Sendable {
    /// The client, with the token.
    public let client: FeedClient
    /// The URL as given, without a trailing slash.
    public let url: String
    private let http: HTTPClient

    /// A server at `url` (http:// or https://, no query). The connection must open within 10 s;
    /// an answer that stops arriving for 5 minutes fails (a job's events carry a comment every
    /// 15 s, so a long job never trips it).
    public init(url: String, token: String?) throws(RemoteError) {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              parsed.host?.isEmpty == false, parsed.query == nil, parsed.fragment == nil else {
            throw .unsupported(url: url)
        }
        if let problem = RedirectTarget.problem(parsed) { throw .failed(url: url, reason: problem) }
        self.url = text
        var configuration = HTTPClient.Configuration()
        // A feed server does not redirect its API; following one would leave the checked URL.
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10), read: .minutes(5))
        configuration.decompression = .disabled
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // No whole-request deadline: uploads, downloads and event streams last as long as they last.
        let transport = AsyncHTTPClientTransport(configuration: .init(client: http, timeout: .hours(24)))
        client = FeedClient(serverURL: parsed, transport: transport, token: token, middlewares: [NetworkWordsMiddleware()])
    }

    /// Closes the connections. Call once, when done.
    public func shutdown() async {
        try? await http.shutdown()
    }
}
