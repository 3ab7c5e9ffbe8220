import HTTPTypes
import Hummingbird

/// What a reverse proxy says of the client's request (`--trust-proxy` only): RFC 7239's
/// `Forwarded` (its first element: the proxy nearest the client), else the de facto
/// `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-For` (their first values). Only
/// `http` or `https` is taken as the scheme, and only a plain `host[:port]` as the host, so a
/// header cannot put anything else into the links the server writes.
struct ForwardedHeaders: Equatable {
    /// `http` or `https`, as the client reached the proxy.
    var proto: String?
    /// The host (and port) the client asked for.
    var host: String?
    /// The client's address.
    var client: String?

    init(proto: String? = nil, host: String? = nil, client: String? = nil) {
        self.proto = proto
        self.host = host
        self.client = client
    }

    /// The forwarded facts of `headers`; fields nobody set are nil.
    init(_ headers: HTTPFields) {
        if let forwarded = headers[values: .forwarded].first {
            self = Self.parse(forwarded)
        } else {
            let first = { (name: HTTPField.Name) in
                headers[name]?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }
            self.init(proto: first(.xForwardedProto).flatMap(Self.scheme), host: first(.xForwardedHost).flatMap(Self.plainHost),
                      client: first(.xForwardedFor))
        }
    }

    /// The first element of a `Forwarded` value: `for=…;proto=https;host=example.com`.
    static func parse(_ value: String) -> ForwardedHeaders {
        var result = ForwardedHeaders()
        let element = value.split(separator: ",", maxSplits: 1).first ?? ""
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            var text = parts[1]
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            switch parts[0].lowercased() {
            case "proto": result.proto = scheme(text)
            case "host": result.host = plainHost(text)
            case "for": result.client = text
            default: break
            }
        }
        return result
    }

    private static func scheme(_ text: String) -> String? {
        let lower = text.lowercased()
        return lower == "http" || lower == "https" ? lower : nil
    }

    private static func plainHost(_ text: String) -> String? {
        MediaLinks.isPlainHost(text) ? text : nil
    }
}

extension HTTPField.Name {
    static let forwarded = Self("Forwarded")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedHost = Self("X-Forwarded-Host")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}
