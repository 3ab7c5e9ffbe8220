import Foundation

/// How to reach an S3-compatible store: its endpoint, region, keys and addressing style, read
/// from the variables every S3 tool reads (``init(environment:)``).
public struct S3Configuration: Sendable {
    /// The store's base URL (`https://s3.us-east-1.amazonaws.com`, `http://127.0.0.1:8333`).
    public var endpoint: URL
    /// The region signatures are scoped to.
    public var region: String
    /// The keys.
    public var credentials: S3Credentials
    /// Whether the bucket goes in the path (`http://host/bucket/key`) rather than the host name
    /// (`https://bucket.host/key`): what most self-hosted stores need.
    public var pathStyle: Bool
    /// How long a request may go without a byte from the store before it is abandoned.
    public var timeout: Duration
    /// Attempts at most for a request the store answers with 500, 503 (`SlowDown`) or that a
    /// connection error cuts: the first and then retries after a growing, jittered pause.
    public var attempts: Int

    /// The defaults: 30 s without a byte, 5 attempts.
    public static let defaultTimeout: Duration = .seconds(30)
    public static let defaultAttempts = 5

    /// A configuration as given.
    public init(endpoint: URL, region: String, credentials: S3Credentials, pathStyle: Bool,
                timeout: Duration = defaultTimeout, attempts: Int = defaultAttempts) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.pathStyle = pathStyle
        self.timeout = timeout
        self.attempts = max(1, attempts)
    }

    /// The configuration the standard variables give:
    /// - `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (both needed), `AWS_SESSION_TOKEN`;
    /// - `AWS_REGION` (else `AWS_DEFAULT_REGION`, else `us-east-1`);
    /// - `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (else AWS's endpoint for the region);
    /// - `FEED_S3_PATH_STYLE` `1` or `0` (else path style exactly when an endpoint is given).
    /// - Throws: ``S3Error/configuration(_:)`` naming the variable that is missing or wrong.
    public init(environment: [String: String]) throws(S3Error) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let access = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
            throw .configuration("no keys for the object store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        let given = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL")
        let endpoint: URL
        if let given {
            guard let url = URL(string: given), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false, url.query == nil
            else { throw .configuration("AWS_ENDPOINT_URL: \(given) is not an http(s) URL of a store") }
            endpoint = url
        } else {
            endpoint = URL(string: "https://s3.\(region).amazonaws.com")!
        }
        let pathStyle: Bool
        switch value("FEED_S3_PATH_STYLE") {
        case nil: pathStyle = given != nil
        case "1", "true", "yes": pathStyle = true
        case "0", "false", "no": pathStyle = false
        case let other?: throw .configuration("FEED_S3_PATH_STYLE: \(other) is not 1 or 0")
        }
        self.init(endpoint: endpoint, region: region,
                  credentials: S3Credentials(accessKey: access, secretKey: secret, sessionToken: value("AWS_SESSION_TOKEN")),
                  pathStyle: pathStyle)
    }
}
