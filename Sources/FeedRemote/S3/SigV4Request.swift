import Crypto
import FeedCore
import Foundation

/// One request as Signature Version 4 sees it, and the canonical forms it is signed by. The
/// path and query are given decoded (an object key as it is: `a b/ü.mp4`) and encoded here once,
/// as S3 wants (no second encoding, no `.`/`..` normalization); the request must be sent with the
/// same encoding (``encodedPath``, ``encodedQuery``).
public struct SigV4Request: Sendable {
    /// `GET`, `PUT`, …
    public var method: String
    /// The path, decoded, starting with `/`.
    public var path: String
    /// The query's names and values, decoded, in any order (`uploads` is `("uploads", "")`).
    public var query: [(name: String, value: String)]
    /// The headers that are signed: names in any case; `host` must be among them.
    public var headers: [(name: String, value: String)]
    /// The body's SHA-256 in lowercase hex, or `UNSIGNED-PAYLOAD`.
    public var payloadSHA256: String

    /// A request to sign.
    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)], payloadSHA256: String) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadSHA256 = payloadSHA256
    }

    /// The SHA-256 of no bytes, the payload hash of a request without a body.
    public static let emptyPayloadSHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The path as sent and signed: each byte outside the unreserved set percent-encoded, `/` kept.
    public var encodedPath: String { SigV4Encoding.encode(path.isEmpty ? "/" : path, keepSlash: true) }

    /// The query as sent and signed: names and values encoded, sorted by name then value.
    public var encodedQuery: String {
        let encoded: [(name: String, value: String)] = query.map { (SigV4Encoding.encode($0.name), SigV4Encoding.encode($0.value)) }
        let sorted = encoded.sorted { (a, b) -> Bool in a.name == b.name ? a.value < b.value : a.name < b.name }
        return sorted.map { pair -> String in pair.name + "=" + pair.value }.joined(separator: "&")
    }

    /// The signed headers' names: lowercase, sorted, `;`-separated.
    public var signedHeaders: String { canonicalHeaderList.map(\.name).joined(separator: ";") }

    /// Lowercase names with their values trimmed and inner runs of spaces made one; a name given
    /// twice has its values joined by `,` in the order given.
    private var canonicalHeaderList: [(name: String, value: String)] {
        var merged: [String: String] = [:]
        var order: [String] = []
        for (name, value) in headers {
            let key = name.lowercased()
            let tidy = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            if let earlier = merged[key] { merged[key] = earlier + "," + tidy } else { merged[key] = tidy; order.append(key) }
        }
        return order.sorted().map { ($0, merged[$0]!) }
    }

    /// The canonical request: method, path, query, headers, signed header names and payload hash.
    public var canonicalRequest: String {
        let headerLines = canonicalHeaderList.map { "\($0.name):\($0.value)\n" }.joined()
        return [method, encodedPath, encodedQuery, headerLines, signedHeaders, payloadSHA256].joined(separator: "\n")
    }

    /// The string to sign for `scope` at `timestamp` (`20150830T123600Z`).
    public func stringToSign(timestamp: String, scope: SigV4Scope) -> String {
        let hash = SHA256.hash(data: Array(canonicalRequest.utf8))
        return ["AWS4-HMAC-SHA256", timestamp, scope.description, hash.hex].joined(separator: "\n")
    }
}
