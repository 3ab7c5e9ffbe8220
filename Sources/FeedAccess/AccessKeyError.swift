import FeedCore

/// A key file `feed serve` or `feed token` cannot use; the message names the file.
public enum AccessKeyError: FeedFailure, Equatable {
    /// The file does not exist.
    case missing(file: String)
    /// The file exists but cannot be read.
    case unreadable(file: String, reason: String)
    /// An HS256 secret shorter than SHA-256's 32 bytes (RFC 7518 §3.2).
    case secretTooShort(file: String, bytes: Int)
    /// A JWKS that is not one, or has no ES256/RS256 public key.
    case badJWKS(file: String, reason: String)
    /// Minting needs the HS256 secret (`feed token`), not a JWKS of public keys.
    case noSecret

    public var kind: FailureKind {
        switch self {
        case .missing: .missingInput
        case .unreadable: .io
        case .secretTooShort, .badJWKS: .invalidData
        case .noSecret: .usage
        }
    }

    public var description: String {
        switch self {
        case let .missing(file): "\(file): no such file"
        case let .unreadable(file, reason): "\(file): cannot be read: \(reason)"
        case let .secretTooShort(file, bytes):
            "\(file): a secret needs at least 32 bytes, this one has \(bytes) (make one with: head -c 32 /dev/urandom | base64 > \(file))"
        case let .badJWKS(file, reason): "\(file): not a usable JWKS: \(reason)"
        case .noSecret: "minting a token needs the HS256 secret file"
        }
    }
}
