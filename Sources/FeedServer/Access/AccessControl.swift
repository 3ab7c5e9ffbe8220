import FeedAccess
import FeedCore
import Foundation
import Hummingbird

/// Who may call: the admin token, the JWT keys, the signed-link signer and the clock. With
/// neither a token nor a key the server is open (``Caller/open``): that is allowed on loopback only.
public struct AccessControl: Sendable {
    /// `--token`: the admin's shared secret.
    public let adminToken: String?
    /// `--jwt-secret-file` and `--jwks-file`.
    public let keys: AccessKeys?
    /// Signs and checks playback links; nil on an open server (its links need no signature).
    public let links: LinkSigner?
    /// Seconds since 1970 (a test drives it).
    public let now: @Sendable () -> Int64

    /// Whether signed links outlive this process and hold on every server given the same
    /// options: their key derives from `--link-secret-file`, the HS256 secret or `--token`, not
    /// from a random one (a JWKS alone).
    public let linksAreShared: Bool

    /// Access with these credentials; links live `linkTTL` seconds, signed with a key derived from
    /// `linkSecret` (`--link-secret-file`), else from the HS256 secret, else from `adminToken`,
    /// else a random one of this process.
    public init(adminToken: String? = nil, keys: AccessKeys? = nil, linkSecret: [UInt8]? = nil, linkTTL: Int64 = 3600,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.adminToken = adminToken
        self.keys = keys
        self.now = now
        let material = linkSecret ?? keys?.secret ?? adminToken.map { Array($0.utf8) }
        linksAreShared = material != nil
        if adminToken == nil && keys == nil {
            links = nil
        } else {
            links = LinkSigner(secret: material, ttl: linkTTL)
        }
    }

    /// No credentials: anyone may do anything (loopback only).
    public var isOpen: Bool { adminToken == nil && keys == nil }

    /// How the links inside an answer to `caller` are signed (a playlist's URIs, a storyboard's
    /// sprite): until the link the answer was asked with expires, else for a link's lifetime from
    /// now. Nil when links are not signed.
    func signing(for caller: Caller) -> (signer: LinkSigner, expires: Int64)? {
        guard let links else { return nil }
        if case let .link(until) = caller.credential { return (links, until) }
        return (links, links.expiry(now: now()))
    }

    /// The caller of `request` on a route with `rule`, or the 401/403 that refuses it.
    func caller(of request: Request, rule: AccessRule) async throws -> Caller {
        if isOpen { return .open }
        guard let scope = rule.scope else { return .nobody }
        let what = request.label
        // A link stands in for a token; with a token, the token decides and `sig` is ignored.
        if rule.links, request.method == .get || request.method == .head, let links,
           request.headers[.authorization] == nil, let sig = request.uri.queryParameters.get("sig") {
            return try link(request, sig: sig, signer: links, what: what)
        }
        let caller = try await bearer(request, what: what)
        guard caller.has(scope) else {
            throw APIError(.forbidden, kind: .forbidden, "\(what): needs a token with scope \(scope.rawValue)",
                           headers: [.wwwAuthenticate: #"Bearer error="insufficient_scope", scope="\#(scope.rawValue)""#])
        }
        return caller
    }

    /// The caller a signed link makes, or 403: expired, tampered, or signed for another path.
    private func link(_ request: Request, sig: String, signer: LinkSigner, what: String) throws -> Caller {
        guard let text = request.uri.queryParameters.get("exp"), let expires = Int64(text) else {
            throw APIError(.forbidden, kind: .forbidden, "\(what): a signed link needs exp (seconds since 1970) beside sig")
        }
        guard signer.verify(path: request.uri.path, expires: expires, sig: sig) else {
            throw APIError(.forbidden, kind: .forbidden, "\(what): the link's signature does not match it (a changed link, or one for another path)")
        }
        guard now() < expires else {
            throw APIError(.forbidden, kind: .forbidden, "\(what): the link expired at \(Date(timeIntervalSince1970: Double(expires)).formatted(.iso8601))")
        }
        return Caller(user: nil, scopes: [.read], credential: .link(expires: expires))
    }

    /// The caller a bearer token names: the admin token, or a JWT the keys verify; 401 otherwise.
    private func bearer(_ request: Request, what: String) async throws -> Caller {
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, kind: .unauthorized, "\(what): needs Authorization: Bearer <token>",
                           headers: [.wwwAuthenticate: "Bearer"])
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(.unauthorized, kind: .unauthorized, "\(what): needs Authorization: Bearer <token>, not another scheme",
                           headers: [.wwwAuthenticate: #"Bearer error="invalid_request""#])
        }
        let token = String(parts[1])
        // Compared in constant time: how long a refusal takes says nothing of the token.
        if let adminToken, ConstantTime.equal(token.utf8, adminToken.utf8) { return .admin }
        guard let keys, token.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
            throw APIError(.unauthorized, kind: .unauthorized, "\(what): a wrong token; needs Authorization: Bearer <token>",
                           headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
        }
        switch await keys.verify(token, now: now()) {
        case let .success(caller): return caller
        case let .failure(refusal):
            throw APIError(.unauthorized, kind: .unauthorized, "\(what): \(refusal)",
                           headers: [.wwwAuthenticate: #"Bearer error="invalid_token", error_description="\#(refusal.shortReason)""#])
        }
    }
}
