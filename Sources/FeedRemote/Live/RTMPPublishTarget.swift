import FeedCore

/// Where `feed live publish` sends: an `rtmp://host[:port]/app/key` URL, as ffmpeg takes it
/// (a stream's `rtmp_url`, a slash, its `stream_key`).
public struct RTMPPublishTarget: Sendable, Equatable {
    /// The server's host name or address.
    public let host: String
    /// Its RTMP port (1935 when the URL names none).
    public let port: Int
    /// The application: the path between the host and the key (`live` for feed).
    public let app: String
    /// The stream key: the URL's last path component.
    public let key: String

    /// The URL the server is told was used (`tcUrl`): everything but the key.
    public var tcURL: String { "rtmp://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(app)" }
    /// The URL with the key hidden, for messages: a key is a secret.
    public var redacted: String { "\(tcURL)/<key>" }

    /// Parses `url`.
    /// - Throws: ``RTMPPublishError/badURL(_:reason:)`` when it is not `rtmp://host[:port]/app/key`.
    public init(url: String) throws(RTMPPublishError) {
        // Messages name the URL without its last path component (the key, when it is a key).
        var shown = url
        if let scheme = url.range(of: "://"), let slash = url.lastIndex(of: "/"), slash > scheme.upperBound,
           url[scheme.upperBound..<slash].contains("/") {
            shown = url[..<slash] + "/<key>"
        }
        guard url.hasPrefix("rtmp://") else {
            let reason = url.hasPrefix("rtmps://") ? "rtmps is not supported here: publish to the server's rtmp:// address (on loopback, or through a TLS tunnel)" : "not an rtmp:// URL"
            throw .badURL(shown, reason: reason)
        }
        let rest = url.dropFirst("rtmp://".count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let authority = parts.first, !authority.isEmpty else {
            throw .badURL(shown, reason: "expected rtmp://host[:port]/app/key (the stream's rtmp_url, a slash, its stream_key)")
        }
        let app = parts.dropFirst().dropLast().joined(separator: "/")
        guard let key = parts.last, !key.isEmpty, !app.isEmpty, !key.contains("?") else {
            throw .badURL(shown, reason: "expected rtmp://host[:port]/app/key (the stream's rtmp_url, a slash, its stream_key)")
        }
        var host = String(authority), port = 1935
        if host.hasPrefix("[") {  // [v6]:port
            guard let close = host.firstIndex(of: "]") else { throw .badURL(shown, reason: "an IPv6 address without its ]") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()) else { throw .badURL(shown, reason: "the port is not a number") }
                port = number
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { throw .badURL(shown, reason: "the port is not a number") }
            port = number
            host = String(host[..<colon])
        }
        guard (1...65535).contains(port), !host.isEmpty else { throw .badURL(shown, reason: "the port is not between 1 and 65535") }
        self.host = host
        self.port = port
        self.app = app
        self.key = String(key)
    }
}
