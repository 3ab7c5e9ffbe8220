import AsyncHTTPClient
import FeedCore
import Foundation
import NIOCore

/// Reads a whole http(s) resource with the limits a tool that fetches untrusted URLs needs:
/// at most ``maxRedirects`` redirects, a size cap checked as bytes arrive (and against
/// `Content-Length` up front), one deadline for the whole read, and errors naming the URL and
/// the HTTP status.
public enum HTTPFetch {
    /// Redirects followed before giving up.
    public static let maxRedirects = 5
    /// The default size cap: the feed loader's 1 GiB.
    public static let defaultLimit: Int64 = 1 << 30

    /// What a fetch returned.
    public struct Body: Sendable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The URL they came from, after redirects.
        public var url: URL
    }

    /// Fetches `url` whole.
    /// - Throws: ``RemoteError``.
    public static func get(_ url: URL, limit: Int64 = defaultLimit, timeout: TimeInterval = 30) async throws(RemoteError) -> Body {
        let shown = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { throw .unsupported(url: shown) }
        if let problem = RedirectTarget.problem(url) { throw .failed(url: shown, reason: problem) }
        var configuration = HTTPClient.Configuration()
        // Followed here, each target checked (see RedirectTarget).
        configuration.redirectConfiguration = .disallow
        let milliseconds = Int64(max(timeout, 0.001) * 1000)
        configuration.timeout = .init(connect: .milliseconds(min(milliseconds, 10_000)), read: .milliseconds(milliseconds))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            // One deadline for everything, the body included: a server trickling a byte now and
            // then never trips the read timeout, which only measures silence.
            let body = try await withThrowingTaskGroup(of: Body?.self) { group in
                group.addTask { try await read(url, client: client, limit: limit, timeout: timeout) }
                group.addTask { try await Task.sleep(for: .milliseconds(milliseconds)); return nil }
                guard let first = try await group.next(), let body = first else {
                    // Closing the client ends the read still under way.
                    try? await client.shutdown()
                    group.cancelAll()
                    throw RemoteError.timedOut(url: shown, seconds: Int(timeout.rounded(.up)))
                }
                group.cancelAll()
                return body
            }
            try? await client.shutdown()
            return body
        } catch {
            try? await client.shutdown()
            throw mapped(error, url: shown, limit: limit, timeout: timeout)
        }
    }

    private static func read(_ url: URL, client: HTTPClient, limit: Int64, timeout: TimeInterval) async throws -> Body {
        var current = url, seen: Set<String> = [url.absoluteString]
        var response: HTTPClientResponse
        while true {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: "feed/0.1")
            response = try await client.execute(request, timeout: .milliseconds(Int64(max(timeout, 0.001) * 1000)))
            guard RedirectTarget.statuses.contains(Int(response.status.code)) else { break }
            let next = try RedirectTarget.next(from: current, location: response.headers.first(name: "location"))
            _ = try? await response.body.collect(upTo: 64 << 10)  // a redirect's own body is nothing to us
            guard seen.count <= maxRedirects, seen.insert(next.absoluteString).inserted else { throw RemoteError.tooManyRedirects(url: url.absoluteString) }
            current = next
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            throw RemoteError.status(url: url.absoluteString, code: Int(response.status.code), reason: response.status.reasonPhrase)
        }
        if let declared = response.headers.first(name: "content-length").flatMap(Int64.init), declared > limit {
            throw RemoteError.tooLarge(url: url.absoluteString, limit: limit)
        }
        var bytes: [UInt8] = []
        for try await buffer in response.body {
            guard Int64(bytes.count + buffer.readableBytes) <= limit else { throw RemoteError.tooLarge(url: url.absoluteString, limit: limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return Body(bytes: bytes, url: current)
    }

    private static func mapped(_ error: any Error, url: String, limit: Int64, timeout: TimeInterval) -> RemoteError {
        if let error = error as? RemoteError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .redirectLimitReached, .redirectCycleDetected: return .tooManyRedirects(url: url)
            case .deadlineExceeded, .readTimeout, .connectTimeout: return .timedOut(url: url, seconds: Int(timeout.rounded(.up)))
            default: return .failed(url: url, reason: NetworkFailure.reason(error))
            }
        }
        return .failed(url: url, reason: NetworkFailure.reason(error))
    }
}
