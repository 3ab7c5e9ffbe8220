import FeedCore
import FeedSocial
import FeedJobs
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `feed serve`: the feed, its media, the roll and its marks over HTTP, through FeedCore.
///
/// Routes are one file per resource (Routes/); the middlewares log each request, map every
/// error to a JSON body, work out who called (``AccessMiddleware``) and refuse what the caller may not do. SIGINT
/// and SIGTERM stop accepting connections and give in-flight requests 5 s to finish.
public struct FeedServer: Sendable {
    /// What the routes serve.
    public let service: FeedService

    /// Runs queued stack jobs.
    public let runner: JobRunner

    /// HLS ladders being packaged for `/roll/{id}/hls/`.
    let packagings: HLSPackagings

    /// The `--jobs` threads (at least one) where long FFmpeg work runs: stack jobs and HLS packagings.
    let work: BlockingPool
    /// Threads for the media a request makes on first use and the roll caches (posters,
    /// storyboards, fast-start copies): seconds at most each, so they never wait behind a
    /// minute-long stack on ``work``, whatever `--jobs` is.
    let media = BlockingPool(name: "feed.media", threads: FeedServer.mediaThreads)
    /// How many of those at once.
    static let mediaThreads = 2
    /// Threads for short blocking file steps of requests (an upload's writes and fsyncs, the
    /// probe and hash that finish it), so they never wait behind minute-long FFmpeg work.
    let files = BlockingPool(name: "feed.files", threads: 4)
    /// The social use cases (publishing with its poster, ladder and events; comments, reports, follows).
    let social: Social
    /// The requests answered, for `GET /metrics`.
    let metrics = ServerMetrics()
    /// The live streams published to this server (``LiveRoutes``, ``RTMPIngestService``).
    let live: LiveHub
    /// The RTMP port once bound.
    let rtmpBound = Locked<Int?>(nil)
    /// For You's counters (events accepted, duplicates, plays) for `/metrics`.
    let recsCounters = RecsCounters()

    /// The server's logger (swift-log): lifecycle, job and error lines; `feed serve: …` on
    /// stderr unless the configuration gives another (see ``ServerConfiguration/logger``).
    public let logger: Logger
    /// The access log's logger, nil when there is none (`--quiet`).
    let accessLogger: Logger?
    /// The lifecycle and job lines as a closure (for the job runner and the lifecycle services),
    /// at `info` through ``logger``; nil with `--quiet`.
    public let log: (@Sendable (String) -> Void)?

    /// A server for `service`.
    public init(service: FeedService) {
        self.service = service
        let configuration = service.configuration
        logger = configuration.logger
            ?? LineLogHandler.logger("feed.serve", prefix: "feed serve: ", level: configuration.quiet ? .critical : .info)
        accessLogger = configuration.accessLogger ?? (configuration.quiet ? nil : LineLogHandler.logger("feed.access", prefix: "", level: .info))
        var log: (@Sendable (String) -> Void)?
        if !configuration.quiet {
            log = { [logger] line in logger.info("\(line)") }
        }
        self.log = log
        work = BlockingPool(name: "feed.work", threads: service.configuration.jobs)
        runner = JobRunner(queue: JobQueue(roll: service.roll, uploads: service.uploads), slots: service.configuration.jobs, pool: work,
                           webhooks: service.configuration.webhooks, log: log)
        packagings = HLSPackagings(roll: service.roll, pool: work)
        social = Social(roll: service.roll, store: service.social, pool: media)
        let publishing = UploadPublishing(social: social, log: log)
        service.uploads.onCompletion { upload, metadata in await publishing.completed(upload, metadata) }
        let livePublishing = LivePublishing(social: social, log: log)
        live = LiveHub(options: LiveSegmenterOptions(partTarget: configuration.livePartTarget),
                       hold: .milliseconds(Int64(configuration.liveHold * 1000)), store: service.roll.catalog,
                       reconnectWindow: configuration.liveReconnectWindow,
                       recordings: LiveRecordings(roll: service.roll, pool: work, log: log,
                                                  ready: { stream, recording in await livePublishing.ready(stream, recording: recording) }))
    }

    /// The router with every route and middleware: what a test or the server runs. HEAD
    /// answers wherever GET does (RFC 9110 §9.3.2), with the GET's headers and no body.
    public func router() -> Router<ServerContext> {
        router(table: RouteTable())
    }

    /// ``router()``, its routes recorded in `table` (what the contract test compares with
    /// `openapi.yaml`).
    func router(table: RouteTable) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        let configuration = service.configuration
        router.add(middleware: RequestRecordMiddleware(metrics: metrics, accessLogger: accessLogger))
        router.add(middleware: RefusalMiddleware())
        let origins = configuration.allowedOrigins
        if !origins.isEmpty { router.add(middleware: CrossOriginMiddleware(origins: origins)) }
        router.add(middleware: ErrorMiddleware(routes: table, paths: service.paths, log: log))
        router.add(middleware: AccessMiddleware(access: configuration.access, trustProxy: configuration.trustProxy,
                                                 refusalRate: configuration.refusalRate))
        if let rate = configuration.rate { router.add(middleware: RateLimitMiddleware(limiter: RateLimiter(rate: rate), trustProxy: configuration.trustProxy)) }
        if configuration.faults { router.add(middleware: FaultMiddleware()) }
        let routes = RouteRecorder(router: router, table: table)
        VideosRoutes(service: service).register(on: routes)
        CommentsRoutes(service: service).register(on: routes)
        PostsRoutes(service: service, social: social).register(on: routes)
        UsersRoutes(service: service, social: social).register(on: routes)
        PostCommentsRoutes(service: service, social: social).register(on: routes)
        ReportsRoutes(service: service).register(on: routes)
        EventsRoutes(service: service, counters: recsCounters).register(on: routes)
        ForYouRoutes(service: service).register(on: routes)
        MediaRoutes(service: service, media: media).register(on: routes)
        UploadsRoutes(service: service, files: files).register(on: routes)
        RollRoutes(service: service, files: files).register(on: routes)
        HLSRoutes(service: service, packagings: packagings).register(on: routes)
        PexelsRoutes(service: service).register(on: routes)
        JobsRoutes(service: service, runner: runner).register(on: routes)
        WebhooksRoutes(service: service).register(on: routes)
        LiveRoutes(service: service, hub: live, rtmpPort: { [rtmpBound] in rtmpBound.withLock { $0 } }).register(on: routes)
        OpenAPIRoutes(open: configuration.access.isOpen).register(on: routes)
        let jobs = configuration.jobs > 0 ? runner : nil
        HealthRoutes(service: service, runner: jobs, log: log).register(on: routes)
        MetricsRoutes(service: service, metrics: metrics, runner: jobs, files: files, recs: recsCounters, log: log).register(on: routes)
        ConsoleRoutes().register(on: routes)
        return router
    }

    /// Listens until SIGINT or SIGTERM; `onListening` gets the bound host and port once
    /// connections are accepted (the port is the real one for port 0). Returns once every
    /// service of its group has ended (past the group's 5 s, cancelled), so what the server uses
    /// (its catalog) is closed after this returns. Unless quiet, each step of a shutdown is one
    /// line on stderr: `shutting down…`, `job runner stopped`, `server stopped` (an
    /// ``AnnouncedService`` says its line when it has stopped).
    /// - Throws: ``ServerConfigurationError`` for a configuration it must not run with (an open
    ///   server off loopback, …), before it listens.
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void) async throws {
        let configuration = service.configuration
        try configuration.validate()
        // Hummingbird's and the service group's own words: errors only.
        var logger = self.logger
        if logger.logLevel < .error { logger.logLevel = .error }
        let service = self.service
        // The fast-start copies of clips no longer in the feed, unread for a week, go.
        let clips = service.localClips, copies = service.fastStart
        let swept = await files.run { copies.sweepFeedClipCopies(keeping: clips, unusedFor: FastStartCopies.unusedFeedClipCopyLifetime) }
        if !swept.isEmpty {
            log?("removed \(swept.count) fast-start \(swept.count == 1 ? "copy" : "copies") of clips not in this feed, unread for 7 days (recordings/.faststart)")
        }
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [HTTP1HandlersInstaller(), ContinueHandler(), TCPCorkHandler()],
                                                idleTimeout: .seconds(Int64(configuration.idleTimeout)))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "feed"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                service.listening(port: port)
                await onListening(configuration.host, port)
            },
            logger: logger
        )
        // `--jobs 0`: this server only queues; `feed worker`s run the jobs.
        // ServiceGroup stops services in reverse order: the runner, the server, then the rest.
        // The notice is last, so the first told: its line comes before the others'.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: UploadSweeper(store: service.uploads, files: files))]
        if let rtmpPort = configuration.rtmpPort {
            let roll = service.roll
            let ingest = LiveIngest(streams: LiveStreams(store: service.roll.catalog), hub: live, paths: service.roll.paths,
                                    emit: { event in _ = try? await roll.emit(event) }, clock: { Date() }, log: log,
                                    origin: { service.origin })
            let bound = rtmpBound, host = configuration.host, log = self.log
            services.append(.init(service: AnnouncedService(RTMPIngestService(host: host, port: rtmpPort, ingest: ingest) { port in
                bound.withLock { $0 = port }
                log?("rtmp ingest on rtmp://\(host):\(port)/\(LiveIngest.application)")
            }, stopped: "rtmp ingest stopped", log: log)))
        }
        // After the ingest, so it stops before it: no recovery starts on channels the stop ends.
        if let recordings = live.recordings {
            services.append(.init(service: LiveKeeper(hub: live, recordings: recordings, clock: { Date() })))
        }
        services.append(.init(service: AnnouncedService(app, stopped: "server stopped", log: log)))
        if configuration.recsTrainInterval > 0, let recs = service.recs {
            services.append(.init(service: RecsTrainingSchedule(roll: service.roll, store: recs.store, interval: configuration.recsTrainInterval, log: log)))
        }
        if configuration.jobs > 0 {
            services.append(.init(service: AnnouncedService(runner, stopped: "job runner stopped", log: log)))
        }
        // The rooms' event streams end first: they would otherwise hold the HTTP server's stop for its 5 s.
        let hub = live
        services.append(.init(service: ShutdownNotice("shutting down: no new connections; requests in flight get 5 s", log: log) {
            hub.closeRooms()
        }))
        var group = ServiceGroupConfiguration(services: services,
                                              gracefulShutdownSignals: [.sigterm, .sigint],
                                              logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
        // A packaging still running stops at its next picture and removes its folder.
        await packagings.stop()
        await live.settle()
        work.shutdown()
        media.shutdown()
        files.shutdown()
    }
}
