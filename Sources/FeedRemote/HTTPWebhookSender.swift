import AsyncHTTPClient
import FeedCore
import Foundation
import NIOCore

/// Webhook POSTs over AsyncHTTPClient: one client per sender, redirects not followed (a
/// receiver answers itself), the body read and dropped (at most 64 KiB). ``shutdown()`` when done.
public final class HTTPWebhookSender: WebhookSender {
    private let client: HTTPClient

    /// A sender; `connectTimeout` seconds to connect.
    public init(connectTimeout: Double = 10) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .milliseconds(Int64(connectTimeout * 1000)))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Double) async throws -> Int {
        // An endpoint stored before ports were checked: the HTTP client would stop the process on it.
        if let port = WebhookEndpoint.port(of: url), !(1...65535).contains(port) { throw WebhookPortError(port: port) }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        _ = try? await response.body.collect(upTo: 64 * 1024)
        return Int(response.status.code)
    }

    /// Closes the client's connections.
    public func shutdown() async {
        try? await client.shutdown()
    }
}

/// An endpoint whose port no connection can have.
struct WebhookPortError: Error, CustomStringConvertible {
    let port: Int
    var description: String { "port \(port) is not 1…65535" }
}
