import Crypto
import FeedCore
import Foundation

/// Signed playback links: `PATH?exp=UNIX&sig=SIG`, where SIG is base64url(HMAC-SHA256(key,
/// "GET\n" + PATH + "\n" + UNIX)) and PATH is the percent-encoded path as the link writes it.
/// A link lets anyone `GET` or `HEAD` that one path until `exp`, with no header, so AVPlayer,
/// ffmpeg and `<video>` play it; any other path, a later time or a changed byte is refused.
///
/// The key is derived (HKDF-SHA256) from `--link-secret-file`, else the HS256 secret, else
/// `--token`, so every server sharing it accepts the others' links, before and after a restart;
/// with none of them (a JWKS only) it is random per start.
/// Expiry times are rounded up to the minute, so one client's links stay the same for a minute
/// and responses that carry them can be cached that long.
public struct LinkSigner: Sendable {
    private let key: SymmetricKey
    /// How long a link lives, at least, in seconds (`--link-ttl`).
    public let ttl: Int64

    /// A signer whose key derives from `secret`, or a random one.
    public init(secret: [UInt8]?, ttl: Int64) {
        let material = secret.map { SymmetricKey(data: $0) } ?? SymmetricKey(size: .bits256)
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: material, info: Array("feed signed links v1".utf8), outputByteCount: 32)
        self.ttl = ttl
    }

    /// The expiry of links made at `now`: `now + ttl`, rounded up to the minute.
    public func expiry(now: Int64) -> Int64 {
        let end = now + ttl
        return (end + 59) / 60 * 60
    }

    /// `path` with `?exp=&sig=` (or `&exp=&sig=` after a query it already has).
    public func sign(_ path: String, expires: Int64) -> String {
        path + (path.contains("?") ? "&" : "?") + "exp=\(expires)&sig=\(signature(path: path, expires: expires))"
    }

    /// The signature of `path` until `expires`.
    package func signature(path: String, expires: Int64) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("GET\n\(path)\n\(expires)".utf8), using: key)
        return Base64URL.encode(mac)
    }

    /// Whether `sig` signs `path` until `expires`, compared in constant time. (The time is
    /// checked by the caller, which knows the clock.)
    package func verify(path: String, expires: Int64, sig: String) -> Bool {
        ConstantTime.equal(sig.utf8, signature(path: path, expires: expires).utf8)
    }
}
