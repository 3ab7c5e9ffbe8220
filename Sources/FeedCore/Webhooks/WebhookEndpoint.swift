import Foundation

/// Where events are sent (`feed serve --webhook`, `POST /webhooks`), kept in the catalog so
/// every server and worker sharing it sends them.
public struct WebhookEndpoint: Sendable, Equatable {
    /// Stable id.
    public var id: Int64
    /// An http or https URL.
    public var url: String
    /// The secret its signatures are made with (``WebhookSignature``).
    public var secret: String
    /// When it was added.
    public var createdAt: Date

    /// An endpoint.
    public init(id: Int64, url: String, secret: String, createdAt: Date) {
        self.id = id
        self.url = url
        self.secret = secret
        self.createdAt = createdAt
    }
}

extension WebhookEndpoint {
    /// What is wrong with an endpoint (`POST /webhooks`, `--webhook`), or nil: the rule
    /// openapi.yaml states (`NewWebhook`), checked by hand.
    public static func problem(url: String, secret: String) -> String? {
        guard isEndpoint(url) else { return "url must be http:// or https://, a host, a port maybe and a path of printable ASCII" }
        if let text = portText(of: url), text.hasPrefix("0") || !(1...65535).contains(Int(text) ?? 0) {
            return "url's port must be 1…65535 (no leading zero), not \(text)"
        }
        guard secret.utf8.count >= 16, secret.unicodeScalars.count <= 1024 else { return "secret must be 16…1024 characters (16 bytes at least)" }
        // NUL cannot be stored (PostgreSQL) and no control character belongs in a secret.
        if secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "secret holds control characters" }
        return nil
    }

    /// The port `url` names after its host, if any (`isEndpoint` checked the form).
    public static func port(of url: String) -> Int? {
        portText(of: url).flatMap { Int($0) }
    }

    /// The digits after the host's colon, as written.
    static func portText(of url: String) -> String? {
        guard let start = url.range(of: "://")?.upperBound else { return nil }
        let authority = url[start...].prefix { $0 != "/" }
        guard let colon = authority.firstIndex(of: ":") else { return nil }
        return String(authority[authority.index(after: colon)...])
    }

    /// Whether `url` matches the document's pattern, `^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[!-~]*)?$`,
    /// 2048 bytes at most.
    public static func isEndpoint(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count <= 2048 else { return false }
        var index: Int
        if url.hasPrefix("https://") { index = 8 } else if url.hasPrefix("http://") { index = 7 } else { return false }
        func isHost(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
        }
        let hostStart = index
        while index < bytes.count, isHost(bytes[index]) { index += 1 }
        guard index > hostStart else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let digits = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard (1...5).contains(index - digits) else { return false }
        }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "/") else { return false }
            return bytes[(index + 1)...].allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
        }
        return true
    }
}
