import FeedCore

/// How `feed serve` runs: where it listens and what it allows.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback by default.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port = 8080
    /// Who may call (`--token`, `--jwt-secret-file`, `--jwks-file`, `--link-ttl`). Open by
    /// default: with neither a token nor a key, anyone may do anything (loopback only).
    public var access = AccessControl()
    /// `--token`: the admin token (kept as a setting of its own; ``access`` holds it too).
    public var token: String? {
        get { access.adminToken }
        set { access = AccessControl(adminToken: newValue, keys: access.keys, linkTTL: access.links?.ttl ?? 3600, now: access.now) }
    }
    /// Stack jobs run at once.
    public var jobs = 1
    /// Whether `X-Feed-Fault` request headers are obeyed (tests of an app's retry path).
    public var faults = false
    /// No access log on stderr.
    public var quiet = false
    /// Seconds between two `event: comment` on `/comments/live` unless `?interval=` says otherwise.
    public var commentInterval = 2.0
    /// Seconds an unfinished upload is kept after its last byte (and a finished one's status after it finished).
    public var uploadExpiry = 86_400.0
    /// Largest upload (`Upload-Length`, `Tus-Max-Size`), in bytes.
    public var uploadMaxSize: Int64 = 8 << 30
    /// Largest JSON request body, in bytes.
    public var maxJSONBody = 1 << 20
    /// The origins whose pages may call the server (CORS), as `scheme://host[:port]`, or `["*"]`
    /// for any; empty: no CORS header at all. `feed serve` makes it `["*"]` on loopback without a
    /// token unless `--cors` says otherwise.
    public var corsOrigins: [String] = []
    /// Seconds a connection may stay idle (a slow client cannot hold the server).
    public var idleTimeout = 30
    /// Seconds `/healthz` and `/metrics` wait for the catalog before answering without it:
    /// under a load balancer's or Prometheus' own timeout, so they say "down" instead of timing out.
    public var catalogTimeout: Double = 3
    /// `--trust-proxy`: links are built from the `Forwarded` (or `X-Forwarded-Proto`/`-Host`)
    /// headers of a reverse proxy, and a caller's address is the one it forwards. Only behind a
    /// proxy that sets them: a client reaching the server directly could set them too.
    public var trustProxy = false
    /// How the server's job runner delivers webhook events (the CLI gives it an HTTP client).
    public var webhooks = WebhookDelivery()
    /// Requests a second each caller may make (`--rate`; 429 past it); nil for no limit.
    public var rate: Double?

    /// The defaults: 127.0.0.1:8080, no token, no faults.
    public init() {}

    /// Whether `host` is a loopback address, which may go without a token or key.
    public var bindsLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` names a loopback address.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
