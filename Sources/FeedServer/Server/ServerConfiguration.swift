import FeedCore
import FeedRecs
import Foundation
import Logging

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
    /// for any; empty: no CORS header at all. nil (the default): ``defaultCORSOrigins``, any
    /// origin on an open loopback server and none otherwise.
    public var corsOrigins: [String]? = nil
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
    /// Refused credentials (401, 403) a second each address may have, on average, before its
    /// requests are 429 without being looked at (``AccessMiddleware``); nil for no limit.
    public var refusalRate: Double? = 10
    /// `--rtmp-port`: where publishers (OBS, ffmpeg, `feed live publish`) send live streams, on
    /// ``host`` (so off loopback only with a key, as HTTP); nil: no RTMP ingest.
    public var rtmpPort: Int?
    /// `--live-part-target`: the longest an LL-HLS part lasts, seconds (0.2…0.5).
    public var livePartTarget = LiveSegmenterOptions().partTarget
    /// The longest a blocking playlist or part request is held before 503, seconds: three target
    /// durations, as RFC 8216bis §6.2.5.2 asks of clients' timeouts.
    public var liveHold: Double = 6
    /// `--live-reconnect-window`: seconds a live stream whose publisher dropped waits for it to
    /// come back (the stream goes on, with a discontinuity) before it ends and becomes a
    /// recording (0…3600; Mux's default, 60).
    public var liveReconnectWindow: Double = 60
    /// `--advertise-url`: this server's base URL (`scheme://host[:port]`) as the other servers
    /// sharing its catalog reach it; they redirect the players of streams published here to it.
    /// Nil: `http://HOST:PORT` as bound.
    public var advertiseURL: String?

    /// Where the lifecycle, job and error lines go; nil: stderr, `feed serve: ` before each
    /// line, nothing below `error` with ``quiet``.
    public var logger: Logger?
    /// Where the access log goes (a line a request, `GET /videos 200 1234 1.2ms`); nil: stderr,
    /// off with ``quiet``. Each request logs through a copy carrying its id as metadata.
    public var accessLogger: Logger?

    /// Seconds between For You trainings (`--recs-train-interval`): a `recs.train` job is queued
    /// when the newest model is this old and none is queued or running; 0: never on a schedule.
    public var recsTrainInterval: Double = 300
    /// The share of each For You page kept for exploration (`--recs-exploration`), 0…1.
    public var recsExploration: Double = Recs.defaultExplorationShare

    /// The defaults: 127.0.0.1:8080, no token, no faults.
    public init() {}

    /// Whether the server has neither a key nor a token: anyone may do anything.
    public var isOpen: Bool { access.adminToken == nil && access.keys == nil }

    /// The CORS origins when none are given: any (`*`) on an open loopback server, where a page
    /// on the developer's machine calls it; none on a server with a key or reachable by others.
    public var defaultCORSOrigins: [String] { bindsLoopback && isOpen ? ["*"] : [] }

    /// The origins CORS allows: ``corsOrigins``, else ``defaultCORSOrigins``.
    public var allowedOrigins: [String] { corsOrigins ?? defaultCORSOrigins }

    /// Refuses a configuration the server must not run with: an open server (no key, no token)
    /// bound off loopback, any origin (`*`) with a key or a token, an origin that is not
    /// `scheme://host[:port]`, or a setting outside its range. `FeedServer.run` checks it first;
    /// `feed serve` before it opens anything. Messages name the settings as `feed serve`'s options.
    public func validate() throws(ServerConfigurationError) {
        guard bindsLoopback || !isOpen else { throw .openOffLoopback(host: host) }
        guard (0...65535).contains(port) else { throw .outOfRange("--port must be 0…65535, not \(port)") }
        guard (0...16).contains(jobs) else { throw .outOfRange("--jobs must be 0…16, not \(jobs)") }
        if let rate, !(rate >= 0.001 && rate <= 1_000_000) {
            throw .outOfRange("--rate must be 0.001…1000000 requests a second, not \(rate)")
        }
        if let refusalRate, !(refusalRate >= 0.001 && refusalRate <= 1_000_000) {
            throw .outOfRange("--refusal-rate must be 0 (no limit) or 0.001…1000000 a second, not \(refusalRate)")
        }
        guard uploadMaxSize > 0 else { throw .outOfRange("--max-upload must be more than 0 bytes") }
        guard (1...86_400).contains(idleTimeout) else { throw .outOfRange("--idle-timeout must be 1…86400 seconds, not \(idleTimeout)") }
        guard catalogTimeout >= 0.1, catalogTimeout <= 600 else {
            throw .outOfRange("--catalog-timeout must be 0.1…600 seconds, not \(catalogTimeout)")
        }
        guard uploadExpiry >= 1, uploadExpiry <= 1_000_000_000 else {
            throw .outOfRange("--upload-expiry must be 1…1000000000 seconds, not \(uploadExpiry.shown)")
        }
        if let rtmpPort {
            guard (0...65535).contains(rtmpPort) else { throw .outOfRange("--rtmp-port must be 0…65535, not \(rtmpPort)") }
            guard rtmpPort == 0 || rtmpPort != port else { throw .outOfRange("--rtmp-port must differ from --port (\(port))") }
        }
        guard livePartTarget >= 0.2, livePartTarget <= 0.5 else {
            throw .outOfRange("--live-part-target must be 0.2…0.5 seconds, not \(livePartTarget.shown)")
        }
        guard liveReconnectWindow >= 0, liveReconnectWindow <= 3600 else {
            throw .outOfRange("--live-reconnect-window must be 0…3600 seconds, not \(liveReconnectWindow.shown)")
        }
        guard recsTrainInterval == 0 || (recsTrainInterval >= 10 && recsTrainInterval <= 604_800) else {
            throw .outOfRange("--recs-train-interval must be 0 (never) or 10…604800 seconds, not \(recsTrainInterval.shown)")
        }
        guard recsExploration >= 0, recsExploration <= 1 else {
            throw .outOfRange("--recs-exploration must be 0…1, not \(recsExploration.shown)")
        }
        if let advertiseURL, !Self.isOrigin(advertiseURL) {
            throw .outOfRange("--advertise-url \(advertiseURL): a base URL is scheme://host[:port], like http://10.0.0.5:8080")
        }
        guard liveHold > 0, liveHold <= 60 else { throw .outOfRange("live hold must be more than 0 and at most 60 seconds") }
        let origins = corsOrigins ?? []
        for origin in origins where origin != "*" && !Self.isOrigin(origin) { throw .badOrigin(origin) }
        if origins.contains("*") {
            if origins.count > 1 { throw .anyOriginNotAlone }
            if !isOpen { throw .anyOriginWithKey }
        }
    }

    /// Whether `text` is an origin: `http(s)://host[:port]`, nothing after it.
    public static func isOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else { return false }
        return url.host != nil && url.path.isEmpty && url.query == nil && url.fragment == nil && url.user == nil
    }

    /// Whether `host` is a loopback address, which may go without a token or key.
    public var bindsLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` names a loopback address.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
