import Foundation

/// Why a bearer JWT was not accepted; the 401's detail says it (RFC 6750 `invalid_token`).
public enum TokenRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not three base64url parts of JSON, or a claim missing or of the wrong type.
    case malformed(String)
    /// Its header names an algorithm this server does not take for its keys.
    case algorithm(String)
    /// Its signature is not one of this server's keys.
    case signature
    /// Its `exp` has passed.
    case expired(at: Int64)
    /// Its `nbf` has not come yet.
    case notYetValid(until: Int64)

    public var description: String {
        switch self {
        case let .malformed(reason): "the bearer token is not a JWT feed can read: \(reason)"
        case let .algorithm(alg): "the bearer token is signed with \(alg), which this server does not accept"
        case .signature: "the bearer token's signature does not match this server's keys"
        case let .expired(at): "the bearer token expired at \(Self.time(at))"
        case let .notYetValid(until): "the bearer token is not valid before \(Self.time(until))"
        }
    }

    /// The few words of `error_description` in `WWW-Authenticate`.
    package var shortReason: String {
        switch self {
        case .malformed: "malformed"
        case .algorithm: "algorithm not accepted"
        case .signature: "bad signature"
        case .expired: "expired"
        case .notYetValid: "not yet valid"
        }
    }

    private static func time(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
    }
}
