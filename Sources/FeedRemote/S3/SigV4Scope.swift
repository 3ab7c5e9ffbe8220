import Crypto

/// The credential scope a signature holds for: a day, a region and a service
/// (`20150830/us-east-1/s3/aws4_request`), and the signing key derived for it.
public struct SigV4Scope: Sendable, Equatable, CustomStringConvertible {
    /// The day, `yyyyMMdd` in UTC.
    public var day: String
    /// The region, `us-east-1` for most S3-compatible stores.
    public var region: String
    /// The service, `s3`.
    public var service: String

    /// A scope.
    public init(day: String, region: String, service: String) {
        self.day = day
        self.region = region
        self.service = service
    }

    public var description: String { "\(day)/\(region)/\(service)/aws4_request" }

    /// The key signatures in this scope are made with: HMAC-SHA256 chained over the day, the
    /// region, the service and `aws4_request`, starting from `AWS4` + the secret key.
    public func signingKey(secretKey: String) -> SymmetricKey {
        var key = SymmetricKey(data: Array("AWS4\(secretKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return key
    }
}
