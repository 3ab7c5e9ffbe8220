import FeedAccess
import ArgumentParser
import FeedCore
import FeedSocial
import FeedJobs
import FeedPostgres
import FeedRemote
import FeedServer
import Foundation

/// `feed serve`: the backend short-video apps develop and test against.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the feed, its clips and the camera roll over HTTP.",
        discussion: """
            The first line on stdout is exactly "serving on http://HOST:PORT" (scripts read it; \
            --port 0 picks a free port). Then one access-log line per request on stderr \
            (method, path, status, bytes, milliseconds) unless --quiet. SIGINT or SIGTERM stops \
            accepting connections, gives requests in flight 5 s, and exits 0.
            Binds 127.0.0.1 by default, open to anyone who can reach it. Binding any other address \
            needs a key (--jwt-secret-file, --jwks-file) or --token. With either, every request \
            needs "Authorization: Bearer TOKEN" (401 without, 403 when its scope does not allow \
            it): a JWT whose "sub" is the user and whose "scope" is read, upload and/or admin \
            (`feed token` mints one), or --token, which is admin. Media URLs in answers are signed \
            links (?exp=&sig=, --link-ttl) that play with no header. The document, tus's OPTIONS and \
            GET /healthz (200 while the catalog answers, else 503: for health checks) need nothing; \
            GET /metrics (Prometheus' text format: requests by route and status, durations, jobs by \
            state, the process) needs admin.
            Routes: GET / (the console: the feed, roll, uploads and jobs in a browser), GET \
            /videos (LIVEr shape; ?sort= topic= user= tag= limit= offset=), \
            /videos/{id}, /posts (FeedsApp feeds), /comments, /comments/live (Server-Sent \
            Events, ?interval=), /v1/videos/search?query= and /v1/videos/popular (Pexels shape), \
            /media/videos/{id}[/thumbnail], /media/roll/{id}[/thumb.jpg|/storyboard.vtt|/storyboard.jpg] \
            (byte ranges, ETag, 304), /roll?limit=&cursor=, GET|DELETE /roll/{id}, PUT|DELETE \
            /videos/{id}/like and /bookmark, /likes, /bookmarks, /roll/{id}/hls/master.m3u8 and \
            manifest.mpd (an HLS ladder and the same as DASH, made on first request, at most --jobs \
            at a time, cached). Local clips in the feed are given as this server's /media URLs. \
            Clips and recordings are served fast start (moov first; a copy made once for a phone \
            file), and /videos, /roll and Pexels' video_files give each one's preload_bytes: the \
            prefix that holds its first picture. HEAD answers wherever GET does; a known path with another method is 405 with \
            Allow. Errors are RFC 9457 problem details (application/problem+json) with a "kind".
            Jobs: POST /jobs/stack queues a stack ({"front":{"recording":ID},"back":{"upload":ID},"options":{…}}), \
            GET /jobs/{id}[/events], DELETE /jobs/{id}. With --catalog postgres://… several servers and \
            `feed worker`s share the roll's rows and the queue, and --media the files.
            Uploads: tus 1.0.0 (creation, expiration, termination) at /uploads; GET /uploads/{id} says \
            done with recording_id once the file is in the roll, or failed with the reason.
            Live: POST /live makes a stream with a stream_key; with --rtmp-port a publisher sends \
            rtmp://HOST:PORT/live/KEY (H.264 and AAC, not re-encoded) and players follow its \
            playback_url, an LL-HLS playlist (docs/live.md).
            Exit status: 64 bad option (or a non-loopback --bind without a key or --token), 65/66 a bad \
            or missing feed or key file (65 also a catalog migrated by a newer feed), 74 the address \
            cannot be bound or the catalog cannot be reached.

            EXAMPLES:
              feed serve --port 0
              feed serve --feed videos.json --port 8080
              feed serve --bind 0.0.0.0 --token s3cret --max-upload 2G
              feed serve --bind 0.0.0.0 --jwt-secret-file secret.key --link-ttl 15m
              feed serve --cors https://app.example.com --cors http://localhost:5173
              curl -s localhost:8080/videos | jq '.videos[].id'
              ffprobe http://localhost:8080/media/roll/1
            """
    )

    @OptionGroup var store: CatalogOptions

    /// `--media-serve`'s values.
    enum MediaServe: String, ExpressibleByArgument, CaseIterable { case redirect, proxy }

    @Option(help: ArgumentHelp("""
        With --media s3://…: redirect players to a presigned URL of each recording (expiring with its link), \
        or proxy the bytes through this server (with ranges, from a local copy).
        """, valueName: "redirect|proxy"))
    var mediaServe: MediaServe = .redirect

    @Option(help: ArgumentHelp("With --media s3://…: redirect to BASE/KEY (a CDN or a public bucket) instead of presigned URLs.",
                               valueName: "base"))
    var mediaPublicURL: String?

    @OptionGroup var source: FeedSource
    @Option(help: "Address to listen on.") var bind = Self.defaults.host
    @Option(parsing: .unconditional, help: "Port to listen on (0: any free port).") var port = Self.defaults.port
    @Option(help: "The admin's bearer token: every request needs a token once there is one (a key or this one is needed off loopback).") var token: String?
    @Option(help: ArgumentHelp("File holding the HS256 secret (at least 32 bytes) bearer JWTs are signed with; `feed token` mints them.", valueName: "file"))
    var jwtSecretFile: String?
    @Option(help: ArgumentHelp("File holding a JWKS whose ES256/RS256 public keys verify bearer JWTs (a team's own auth).", valueName: "file"))
    var jwksFile: String?
    @Option(help: ArgumentHelp("File holding the secret (at least 32 bytes) signed media links are made with; servers behind one address share it. Default: the JWT secret, else --token, else (a JWKS alone) a random one that dies with the process.", valueName: "file"))
    var linkSecretFile: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("How long signed media links live (seconds, or with s, m, h, d).", valueName: "time"))
    var linkTTL = TimeSpan(seconds: 3600)
    @Option(parsing: .unconditional, help: "Jobs (and HLS packagings) this server runs at once; 0 only queues jobs, for `feed worker`s to run. Webhook deliveries (up to 4 more) do not count.") var jobs = Self.defaults.jobs
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds an unfinished upload is kept after its last byte.", valueName: "seconds")) var uploadExpiry = Int(Self.defaults.uploadExpiry)
    @Option(parsing: .unconditional, help: ArgumentHelp("Largest upload accepted (Tus-Max-Size; 413 above it), in bytes or with K, M, G, T.", valueName: "size"))
    var maxUpload = ByteSize(bytes: Self.defaults.uploadMaxSize)
    @Option(help: ArgumentHelp("""
        Seconds a connection may send nothing: before its request head is complete, between \
        parts of a body, and between requests (a slow client cannot hold the server).
        """, valueName: "seconds"))
    var idleTimeout = Self.defaults.idleTimeout
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        Seconds GET /healthz and /metrics wait for the catalog before answering that it is down \
        (503, feed_catalog_up 0): less than your load balancer's or Prometheus' timeout.
        """, valueName: "seconds"))
    var catalogTimeout = Self.defaults.catalogTimeout
    @Option(help: ArgumentHelp("""
        An origin (scheme://host[:port]) whose pages may call this server (CORS); repeat for \
        several, or * for any (not with a key or --token). Default: * on an open loopback server, else none.
        """, valueName: "origin"))
    var cors: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("Requests a second each caller (its user, the admin, else its address) may make (0.001…1000000); 429 with Retry-After past it.", valueName: "n"))
    var rate: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Refused credentials (a bad token, a bad signed link, too narrow a scope) a second each address may have before its requests are 429 unchecked (0: no limit).", valueName: "n"))
    var refusalRate = Self.defaults.refusalRate ?? 0
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        Port for RTMP publishers (OBS, ffmpeg, feed live publish) on the --bind address; 0: any free one. Off unless given. Streams play as LL-HLS at /live/{id}/index.m3u8.
        """, valueName: "port"))
    var rtmpPort: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("The longest an LL-HLS part of a live stream lasts, 0.2…0.5 seconds.", valueName: "seconds"))
    var livePartTarget = Self.defaults.livePartTarget
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        Seconds a live stream whose publisher dropped waits for it to come back (0…3600); after \
        it the stream ends and becomes a recording in the roll.
        """, valueName: "seconds"))
    var liveReconnectWindow = Self.defaults.liveReconnectWindow
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        This server's base URL as the other servers sharing its catalog reach it (default: \
        http://HOST:PORT as bound); they redirect players of streams published here to it.
        """, valueName: "url"))
    var advertiseURL: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        Seconds between For You trainings: a recs.train job is queued when the newest model is \
        this old and none is queued or running (whichever runner claims it trains); 0: never.
        """, valueName: "seconds"))
    var recsTrainInterval = Self.defaults.recsTrainInterval
    @Option(parsing: .unconditional, help: ArgumentHelp("The share of each For You page kept for exploration (new and random posts), 0…1.", valueName: "share"))
    var recsExploration = Self.defaults.recsExploration
    @OptionGroup(title: "Webhooks") var webhooks: WebhookOptions
    @Flag(help: "Behind a reverse proxy: build links from its Forwarded or X-Forwarded-Proto/-Host headers (https:// links through a TLS proxy).")
    var trustProxy = false
    @Flag(help: "Obey X-Feed-Fault request headers (status=, drop-after=, delay=).") var faults = false
    @Flag(help: "No access log on stderr.") var quiet = false

    /// The server's own defaults, which the options start from.
    private static let defaults = ServerConfiguration()

    /// What only the command line can get wrong; the server's rules (ranges, loopback, CORS)
    /// are ``ServerConfiguration/validate()``'s, checked in ``run()`` once the keys are read.
    func validate() throws {
        if let token, token.isEmpty { throw ValidationError("--token cannot be empty") }
        guard (60...31_536_000).contains(linkTTL.seconds) else { throw ValidationError("--link-ttl must be 1m…365d, not \(linkTTL)") }
        if let base = mediaPublicURL {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false, url.query == nil else {
                throw ValidationError("--media-public-url must be an http(s) URL without a query, not \(base)")
            }
            guard mediaServe == .redirect else { throw ValidationError("--media-public-url is a redirect's base: it does not go with --media-serve proxy") }
        }
    }

    /// How recordings kept in a bucket reach players.
    var serving: S3Serving {
        if mediaServe == .proxy { return .proxy }
        return mediaPublicURL.flatMap(URL.init(string:)).map(S3Serving.publicURL) ?? .redirect
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = bind
        configuration.port = port
        var keys: AccessKeys?
        if jwtSecretFile != nil || jwksFile != nil {
            keys = try await AccessKeys.load(secretFile: jwtSecretFile, jwksFile: jwksFile)
        }
        var linkSecret: [UInt8]?
        if let linkSecretFile {
            let bytes = try AccessKeys.secret(at: linkSecretFile)
            guard bytes.count >= 32 else { throw AccessKeyError.secretTooShort(file: linkSecretFile, bytes: bytes.count) }
            linkSecret = bytes
        }
        configuration.access = AccessControl(adminToken: token, keys: keys, linkSecret: linkSecret, linkTTL: linkTTL.seconds)
        if !configuration.access.isOpen && !configuration.access.linksAreShared && !quiet {
            try StandardStream.error.write("feed: note: signed media links use a key of this process (a JWKS alone): they stop working "
                                           + "when it restarts, and other servers refuse them; give --link-secret-file\n")
        }
        configuration.uploadExpiry = Double(uploadExpiry)
        configuration.uploadMaxSize = maxUpload.bytes
        configuration.idleTimeout = idleTimeout
        configuration.catalogTimeout = catalogTimeout
        configuration.faults = faults
        configuration.jobs = jobs
        configuration.quiet = quiet
        configuration.corsOrigins = cors.isEmpty ? nil : cors
        configuration.rate = rate
        configuration.refusalRate = refusalRate > 0 ? refusalRate : nil
        configuration.trustProxy = trustProxy
        configuration.rtmpPort = rtmpPort
        configuration.livePartTarget = livePartTarget
        configuration.liveReconnectWindow = liveReconnectWindow
        configuration.advertiseURL = advertiseURL
        configuration.recsTrainInterval = recsTrainInterval
        configuration.recsExploration = recsExploration
        try configuration.validate()
        let feed = try await source.load()
        // The feed's ids and the posts' must never be one: a post's are 10^12 + 1 and up.
        if let clash = feed.videos.first(where: { SocialPost.isPostID($0.id.description) }) {
            throw CommandFailure(description: "\(feed.source): video \(clash.id): its id is in the range of the catalog's posts (\(SocialPost.firstID) and up); give it another id",
                                 kind: .invalidData)
        }
        var log: (@Sendable (String) -> Void)?
        let catalog = try await store.withRoll(connections: 8 + 2 * jobs, serving: serving) { roll -> String? in
            try await webhooks.register(in: roll, note: quiet ? nil : { line in try? StandardStream.error.write("feed: note: \(line)\n") })
            let sender = HTTPWebhookSender()
            defer { Task { await sender.shutdown() } }
            configuration.webhooks = try webhooks.delivery(sender: sender)
            let server = FeedServer(service: FeedService(feed: feed, roll: roll, configuration: configuration))
            log = server.log
            do {
                try await server.run { host, port in
                    let shown = host.contains(":") ? "[\(host)]" : host
                    try? StandardStream.output.write("serving on http://\(shown):\(port)\n")
                }
            } catch {
                throw CommandFailure(description: "cannot serve on \(bind):\(port): \(error)", kind: .io)
            }
            return (roll.catalog as? PostgresCatalog)?.location.description
        }
        // The catalog is not in the server's group: its connections end with the scope above,
        // once the group has returned, so even past the group's deadline nothing that uses it
        // still runs. It says so last, like the others.
        if let catalog { log?("catalog closed (\(catalog))") }
    }
}
