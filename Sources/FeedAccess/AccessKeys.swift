import FeedCore
import Foundation
import JWTKit

/// The keys bearer JWTs are verified with (jwt-kit): an HS256 secret (`--jwt-secret-file`, which
/// `feed token` also signs with), and the ES256/RS256 public keys of a JWKS (`--jwks-file`, so
/// a team's own auth can mint tokens). Only those three algorithms are taken, each only with
/// its own kind of key; `exp` is required, `nbf` honoured, both against the clock given.
public struct AccessKeys: Sendable {
    private let keys: JWTKeyCollection
    /// The `alg` header values accepted: `HS256` with a secret, `ES256`/`RS256` with a JWKS.
    public let algorithms: Set<String>
    /// The HS256 secret, when there is one: for minting, and the key signed links derive from.
    package let secret: [UInt8]?

    /// Keys from the files; at least one must be given.
    public static func load(secretFile: String?, jwksFile: String?) async throws(AccessKeyError) -> AccessKeys {
        let keys = JWTKeyCollection()
        var algorithms: Set<String> = []
        var secret: [UInt8]?
        if let secretFile {
            let bytes = try Self.secret(at: secretFile)
            guard bytes.count >= 32 else { throw .secretTooShort(file: secretFile, bytes: bytes.count) }
            await keys.add(hmac: HMACKey(from: bytes), digestAlgorithm: .sha256)
            algorithms.insert("HS256")
            secret = bytes
        }
        if let jwksFile {
            let data = try Self.read(jwksFile)
            let jwks: JWKS
            do { jwks = try JSONDecoder().decode(JWKS.self, from: Data(data)) } catch {
                throw .badJWKS(file: jwksFile, reason: "not a JSON Web Key Set (RFC 7517 §5)")
            }
            let usable = jwks.keys.filter { key in
                (key.keyType == .rsa || key.keyType == .ecdsa)
                    && (key.algorithm == nil || key.algorithm == .rs256 || key.algorithm == .es256)
            }
            guard !usable.isEmpty else { throw .badJWKS(file: jwksFile, reason: "no RSA or P-256 public key for RS256 or ES256") }
            do { try await keys.add(jwks: JWKS(keys: usable)) } catch {
                throw .badJWKS(file: jwksFile, reason: "\(error)")
            }
            algorithms.formUnion(["ES256", "RS256"])
        }
        return AccessKeys(keys: keys, algorithms: algorithms, secret: secret)
    }

    /// Whether tokens can be minted with these keys (there is an HS256 secret).
    public var mintable: Bool { secret != nil }

    /// The caller a bearer JWT names, or why it is refused.
    public func verify(_ token: String, now: Int64) async -> Result<Caller, TokenRefusal> {
        guard let alg = Self.algorithm(of: token) else { return .failure(.malformed("its header cannot be read")) }
        guard algorithms.contains(alg) else { return .failure(.algorithm(alg)) }
        let claims: TokenClaims
        do {
            claims = try await keys.verify(token, as: TokenClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            return .failure(.signature)
        } catch let error as JWTError where error.errorType == .malformedToken {
            return .failure(.malformed(error.reason ?? "malformed"))
        } catch is DecodingError {
            return .failure(.malformed("it needs a string `sub` and a numeric `exp`"))
        } catch {
            return .failure(.signature)
        }
        if now >= claims.exp { return .failure(.expired(at: claims.exp)) }
        if let nbf = claims.nbf, now < nbf { return .failure(.notYetValid(until: nbf)) }
        guard !claims.sub.isEmpty else { return .failure(.malformed("its `sub` is empty")) }
        return .success(Caller(user: claims.sub, scopes: claims.scope, credential: .jwt))
    }

    /// An HS256 token for `user` (`feed token`): `sub`, `scope`, `iat`, `nbf` now, `exp` after `ttl` seconds.
    public func mint(user: String, scopes: Set<Scope>, ttl: Int64, now: Int64) async throws -> String {
        guard secret != nil else { throw AccessKeyError.noSecret }
        return try await keys.sign(TokenClaims(sub: user, scope: scopes, exp: now + ttl, nbf: now, iat: now),
                                   header: ["alg": "HS256", "typ": "JWT"])
    }

    /// The `alg` of a compact JWT's header, without verifying anything.
    package static func algorithm(of token: String) -> String? {
        guard let header = token.split(separator: ".", omittingEmptySubsequences: false).first,
              let data = Base64URL.decode(header),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["alg"] as? String
    }

    private static func read(_ file: String) throws(AccessKeyError) -> [UInt8] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { throw .missing(file: file) }
        if isFolder.boolValue { throw .unreadable(file: file, reason: "is a folder, not a key file") }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .unreadable(file: file, reason: errno == 0 ? "not readable" : String(cString: strerror(errno)))
        }
        return [UInt8](data)
    }

    /// A secret file's bytes without a final line break (`echo … > file` adds one): the JWT
    /// secret's, and the webhook secrets' (`--webhook-secret-file`).
    public static func secret(at file: String) throws(AccessKeyError) -> [UInt8] {
        var bytes = try read(file)
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return bytes
    }
}
