import CryptoExtras
import FeedCore
import FeedTestSupport
import Foundation
import JWTKit
import Testing
@testable import FeedServer
@testable import FeedAccess

/// Bearer JWTs: what is accepted (HS256 from the secret, ES256 and RS256 from a JWKS) and why
/// anything else is refused.
@Suite("AccessKeys: JWT verification")
struct AccessKeysTests {
    @Test("a minted token names its user and scopes; expiry, nbf, a foreign key and a changed byte are refused")
    func hs256() async throws {
        let f = try await AccessFixture()
        let now = f.clock.now
        let token = try await f.token("alice", [.read, .upload])
        #expect(try await f.keys.verify(token, now: now).get() == Caller(user: "alice", scopes: [.read, .upload], credential: .jwt))
        #expect(await f.keys.verify(token, now: now + 3600) == .failure(.expired(at: now + 3600)))
        #expect(await f.keys.verify(token, now: now - 1) == .failure(.notYetValid(until: now)))
        #expect(await f.keys.verify(try await f.foreignToken("alice"), now: now) == .failure(.signature))
        var changed = Array(token.utf8)
        changed[changed.count - 3] = changed[changed.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await f.keys.verify(String(decoding: changed, as: UTF8.self), now: now) == .failure(.signature))
        #expect(await f.keys.verify("not.a.jwt", now: now).isFailure)
    }

    @Test("alg none, HS512 and an ES256 token against a secret are refused by name, before any key is tried")
    func algorithms() async throws {
        let f = try await AccessFixture()
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"sub":"eve","scope":"admin","exp":9999999999}"#.utf8))
        #expect(await f.keys.verify("\(header).\(claims).", now: f.clock.now) == .failure(.algorithm("none")))
        let hs512 = JWTKeyCollection()
        await hs512.add(hmac: HMACKey(from: String(repeating: "k", count: 64)), digestAlgorithm: .sha512)
        let token = try await hs512.sign(TokenClaims(sub: "eve", scope: [.admin], exp: f.clock.now + 60))
        #expect(await f.keys.verify(token, now: f.clock.now) == .failure(.algorithm("HS512")))
    }

    @Test("no exp is malformed; no scope may only read; scope as an array; unknown words are left out")
    func claims() async throws {
        let f = try await AccessFixture()
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: String(repeating: "k", count: 40)), digestAlgorithm: .sha256)
        struct Loose: JWTPayload {
            var sub: String
            var scope: [String]?
            var exp: Int64?
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let now = f.clock.now
        #expect(await f.keys.verify(try await signer.sign(Loose(sub: "a", exp: nil)), now: now).isFailure)
        #expect(try await f.keys.verify(try await signer.sign(Loose(sub: "a", exp: now + 9)), now: now).get().scopes == [.read])
        let listed = try await signer.sign(Loose(sub: "a", scope: ["upload", "billing", "read"], exp: now + 9))
        #expect(try await f.keys.verify(listed, now: now).get().scopes == [.read, .upload])
    }

    @Test("a JWKS's ES256 and RS256 public keys verify their tokens; the secret's tokens are then refused when only the JWKS is given")
    func jwks() async throws {
        let folder = try ScratchFolder()
        let ec = ES256PrivateKey()
        let rsa = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let (n, e) = try rsa.publicKey.getKeyPrimitives()
        let ecParameters = try #require(ec.parameters)
        let jwks = """
            {"keys":[{"kty":"EC","crv":"P-256","kid":"ec-1","alg":"ES256","x":"\(ecParameters.x)","y":"\(ecParameters.y)"},
                     {"kty":"RSA","kid":"rsa-1","alg":"RS256","n":"\(Base64URL.encode(n))","e":"\(Base64URL.encode(e))"}]}
            """
        let file = folder.path("jwks.json")
        try Data(jwks.utf8).write(to: URL(fileURLWithPath: file))
        let keys = try await AccessKeys.load(secretFile: nil, jwksFile: file)
        let signers = JWTKeyCollection()
        await signers.add(ecdsa: ec, kid: "ec-1")
        await signers.add(rsa: rsa, digestAlgorithm: .sha256, kid: "rsa-1")
        let now: Int64 = 1_800_000_000
        let claims = TokenClaims(sub: "bob", scope: [.read], exp: now + 60)
        #expect(try await keys.verify(try await signers.sign(claims, kid: "ec-1"), now: now).get().user == "bob")
        #expect(try await keys.verify(try await signers.sign(claims, kid: "rsa-1"), now: now).get().user == "bob")
        let hs = try await AccessFixture().token("bob", [.read])
        #expect(await keys.verify(hs, now: now) == .failure(.algorithm("HS256")))
        #expect(!keys.mintable)
    }

    @Test("key files: missing (66), a folder (74, saying so), a short secret (65, saying how to make one), not a JWKS (65)")
    func badFiles() async throws {
        let folder = try ScratchFolder()
        await #expect(throws: AccessKeyError.missing(file: folder.path("nope"))) {
            try await AccessKeys.load(secretFile: folder.path("nope"), jwksFile: nil)
        }
        await #expect(throws: AccessKeyError.unreadable(file: folder.url.path, reason: "is a folder, not a key file")) {
            try await AccessKeys.load(secretFile: folder.url.path, jwksFile: nil)
        }
        let short = folder.path("short.key")
        try Data("tiny\n".utf8).write(to: URL(fileURLWithPath: short))
        await #expect(throws: AccessKeyError.secretTooShort(file: short, bytes: 4)) {
            try await AccessKeys.load(secretFile: short, jwksFile: nil)
        }
        let notJWKS = folder.path("jwks.json")
        try Data(#"{"keys":[{"kty":"oct","k":"AAAA"}]}"#.utf8).write(to: URL(fileURLWithPath: notJWKS))
        do {
            _ = try await AccessKeys.load(secretFile: nil, jwksFile: notJWKS)
            Issue.record("an oct-only JWKS was taken")
        } catch {
            #expect(error.kind == .invalidData && error.description.hasPrefix(notJWKS + ": "), "\(error)")
        }
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
