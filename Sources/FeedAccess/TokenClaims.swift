import Foundation
import JWTKit

/// The claims feed reads from a bearer JWT: `sub` (the user id), `scope`, `exp`, `nbf`, `iat`.
/// `scope` is OAuth's space-separated string, or a JSON array of the same words; a token
/// without one may only read. `exp` is required: a token that never dies is refused.
struct TokenClaims: JWTPayload {
    var sub: String
    var scope: Set<Scope>
    var exp: Int64
    var nbf: Int64?
    var iat: Int64?

    init(sub: String, scope: Set<Scope>, exp: Int64, nbf: Int64? = nil, iat: Int64? = nil) {
        self.sub = sub
        self.scope = scope
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
    }

    private enum CodingKeys: String, CodingKey { case sub, scope, exp, nbf, iat }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sub = try container.decode(String.self, forKey: .sub)
        if let words = try? container.decodeIfPresent(String.self, forKey: .scope) {
            scope = Scope.parse(words.split(separator: " "))
        } else if let list = try? container.decodeIfPresent([String].self, forKey: .scope) {
            scope = Scope.parse(list.map { Substring($0) })
        } else {
            scope = [.read]
        }
        exp = try Self.seconds(container, .exp)
        nbf = container.contains(.nbf) ? try Self.seconds(container, .nbf) : nil
        iat = container.contains(.iat) ? try Self.seconds(container, .iat) : nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encode(Scope.words(scope), forKey: .scope)
        try container.encode(exp, forKey: .exp)
        try container.encodeIfPresent(nbf, forKey: .nbf)
        try container.encodeIfPresent(iat, forKey: .iat)
    }

    /// A NumericDate (RFC 7519 §2): seconds since 1970, whole or not.
    private static func seconds(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int64 {
        let value = try container.decode(Double.self, forKey: key)
        guard value.isFinite, abs(value) < 1e15 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a time")
        }
        return Int64(value.rounded(.down))
    }

    /// The times are checked by ``AccessKeys`` against its clock, not here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
