import Crypto
import FeedCore
import Foundation

/// Signs requests to an S3-compatible store with AWS Signature Version 4: in headers
/// (`Authorization`) for feed's own requests, or in the query (a presigned URL) for a link handed
/// to a player. Pure: no clock and no network; the time is an argument.
public struct SigV4Signer: Sendable {
    /// The keys.
    public var credentials: S3Credentials
    /// The region of the scope.
    public var region: String
    /// The service of the scope: `s3`.
    public var service: String

    /// A signer for `service` in `region`.
    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// `date` as SigV4 writes it, `20150830T123600Z` (UTC, whole seconds).
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The scope of a signature made at `timestamp`.
    public func scope(timestamp: String) -> SigV4Scope {
        SigV4Scope(day: String(timestamp.prefix(8)), region: region, service: service)
    }

    /// The signature (lowercase hex) of `request` at `timestamp`, over exactly its headers.
    public func signature(of request: SigV4Request, timestamp: String) -> String {
        let scope = scope(timestamp: timestamp)
        let text = request.stringToSign(timestamp: timestamp, scope: scope)
        let key = scope.signingKey(secretKey: credentials.secretKey)
        return HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: key).hex
    }

    /// The `Authorization` header for `request` at `timestamp`, over exactly its headers (which
    /// must already hold `x-amz-date` and, for S3, `x-amz-content-sha256`).
    public func authorization(of request: SigV4Request, timestamp: String) -> String {
        "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope(timestamp: timestamp)), "
            + "SignedHeaders=\(request.signedHeaders), Signature=\(signature(of: request, timestamp: timestamp))"
    }

    /// Signs `request` made at `date` in its headers: adds `x-amz-date`, `x-amz-content-sha256`
    /// and, with a session token, `x-amz-security-token` to the signed headers, then returns
    /// every header to send (the signed ones and `Authorization`).
    public func sign(_ request: SigV4Request, at date: Date) -> [(name: String, value: String)] {
        var request = request
        let timestamp = Self.timestamp(date)
        request.headers.append(("x-amz-date", timestamp))
        request.headers.append(("x-amz-content-sha256", request.payloadSHA256))
        if let token = credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }
        return request.headers + [("Authorization", authorization(of: request, timestamp: timestamp))]
    }

    /// A presigned request: the query `request` must be sent with (its own items plus
    /// `X-Amz-Algorithm`, `-Credential`, `-Date`, `-Expires`, `-SignedHeaders`, any
    /// `-Security-Token`, and last `X-Amz-Signature`), encoded. Only `host` is signed among the
    /// headers, the payload is `UNSIGNED-PAYLOAD`, and stores refuse it `expires` seconds after
    /// `date` (1…604,800).
    public func presignedQuery(_ request: SigV4Request, at date: Date, expires: Int) -> String {
        var request = request
        let timestamp = Self.timestamp(date)
        request.headers = request.headers.filter { $0.name.lowercased() == "host" }
        request.payloadSHA256 = "UNSIGNED-PAYLOAD"
        request.query += [("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
                          ("X-Amz-Credential", "\(credentials.accessKey)/\(scope(timestamp: timestamp))"),
                          ("X-Amz-Date", timestamp),
                          ("X-Amz-Expires", String(min(max(expires, 1), 604_800))),
                          ("X-Amz-SignedHeaders", request.signedHeaders)]
        if let token = credentials.sessionToken { request.query.append(("X-Amz-Security-Token", token)) }
        return request.encodedQuery + "&X-Amz-Signature=" + signature(of: request, timestamp: timestamp)
    }
}
