import FeedCore
import FeedJobs
import Foundation
import Hummingbird

/// `GET /metrics`: the server in Prometheus' text format, for a scraper (Prometheus, Grafana
/// Agent, VictoriaMetrics) and the people who run the backend: requests by method, route and
/// status, their body bytes and durations (``ServerMetrics``), requests in flight, the roll's
/// recordings, the jobs in each state and those due (read from the catalog at each scrape:
/// `feed_catalog_up` says whether it answered), and the process's CPU, memory and file
/// descriptors under the names every Prometheus client library uses. Admin only on a server
/// with a key or a token; never cached.
struct MetricsRoutes {
    let service: FeedService
    let metrics: ServerMetrics
    /// The server's job runner (nil with `--jobs 0`): `feed_runner_claiming`.
    let runner: JobRunner?
    /// Where the `/proc` reads run.
    let files: BlockingPool
    /// For You's counters (events accepted, duplicates, plays).
    let recs: RecsCounters
    /// Where a failed catalog query's message goes (stderr unless `--quiet`).
    let log: (@Sendable (String) -> Void)?

    func register(on router: RouteRecorder) {
        router.get("metrics", use: scrape)
    }

    @Sendable func scrape(_ request: Request, _ context: ServerContext) async throws -> Response {
        var recordings: Int?, jobs: JobCounts?
        do {
            let roll = service.roll
            (recordings, jobs) = try await CatalogDeadline.run(seconds: service.configuration.catalogTimeout) { (try await roll.count(), try await roll.catalog.jobCounts()) }
        } catch {
            log?("\(request.method.rawValue) \(request.uri.path): the catalog does not answer: \(error)")
        }
        let process = await files.run { ProcessStats.current() }
        var text = MetricsText()
        Self.write(requests: metrics, into: &text)
        text.family("feed_catalog_up", "gauge", "1 when the catalog answered this scrape's queries, else 0 (the recordings and jobs are then left out).")
        text.sample("feed_catalog_up", jobs == nil ? 0 : 1)
        if let recordings, let jobs {
            text.family("feed_recordings", "gauge", "Recordings in the roll.")
            text.sample("feed_recordings", recordings)
            text.family("feed_jobs", "gauge", "Jobs in the queue by state (every server and worker sharing the catalog).")
            for state in Job.State.allCases { text.sample("feed_jobs", [("state", state.rawValue)], jobs.byState[state] ?? 0) }
            text.family("feed_jobs_due", "gauge", "Queued jobs a worker would take now (not waiting out a retry's backoff).")
            text.sample("feed_jobs_due", jobs.due)
        }
        if let runner {
            text.family("feed_runner_claiming", "gauge",
                        "1 while this server's job runner claims jobs; 0 once it stopped for a fault of its own (its media, its disk, FFmpeg), until its checks pass.")
            text.sample("feed_runner_claiming", await runner.stoppedReason == nil ? 1 : 0)
        }
        await Self.write(recs: recs, service: service, into: &text)
        Self.write(process: process, into: &text)
        return Response(status: .ok, headers: [.contentType: MetricsText.contentType, .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text.text)))
    }

    /// For You's families: events accepted and duplicates, plays counted, and the model this
    /// server serves (its version and age; none before the first training). Its pages' latency
    /// is `feed_http_request_duration_seconds{route="/feed/for-you"}`.
    static func write(recs: RecsCounters, service: FeedService, into text: inout MetricsText) async {
        text.family("feed_events_accepted_total", "counter", "Events POST /events stored on this server since it started.")
        text.sample("feed_events_accepted_total", recs.accepted)
        text.family("feed_events_duplicate_total", "counter", "Events this server was sent again (a retried batch): counted once, the first time.")
        text.sample("feed_events_duplicate_total", recs.duplicates)
        text.family("feed_plays_total", "counter", "Plays (new watch events of posts) this server counted in the posts' views.")
        text.sample("feed_plays_total", recs.plays)
        if let model = await service.recs?.models.served {
            text.family("feed_recs_model_version", "gauge", "The version of the For You model this server serves.")
            text.sample("feed_recs_model_version", Int(model.version))
            text.family("feed_recs_model_age_seconds", "gauge", "Seconds since the model this server serves was trained.")
            text.sample("feed_recs_model_age_seconds", max(0, Date().timeIntervalSince1970 - model.trainedAt))
        }
    }

    /// The request families: counts by status, body bytes, durations, in flight.
    static func write(requests metrics: ServerMetrics, into text: inout MetricsText) {
        let tallies = metrics.snapshot()
        text.family("feed_http_requests_total", "counter",
                    "Requests answered since the server started, by method, route (its pattern in openapi.yaml; unmatched: no route) and status.")
        for (key, tally) in tallies {
            for (status, count) in tally.statuses.sorted(by: { $0.key < $1.key }) {
                text.sample("feed_http_requests_total", [("method", key.method), ("route", key.route), ("status", String(status))], count)
            }
        }
        text.family("feed_http_response_body_bytes_total", "counter", "Response body bytes sent, files sent with sendfile included, by method and route.")
        for (key, tally) in tallies {
            text.sample("feed_http_response_body_bytes_total", [("method", key.method), ("route", key.route)], tally.bytes)
        }
        text.family("feed_http_request_duration_seconds", "histogram",
                    "From a request's arrival to its answer (a body in one buffer) or to a streamed body's last byte written or its client gone (files, event streams), by method and route.")
        for (key, tally) in tallies {
            let labels = [("method", key.method), ("route", key.route)]
            for (bound, count) in zip(DurationHistogram.bounds, tally.durations.cumulative) {
                text.sample("feed_http_request_duration_seconds_bucket", labels + [("le", MetricsText.number(bound))], count)
            }
            text.sample("feed_http_request_duration_seconds_bucket", labels + [("le", "+Inf")], tally.durations.count)
            text.sample("feed_http_request_duration_seconds_sum", labels, tally.durations.sum)
            text.sample("feed_http_request_duration_seconds_count", labels, tally.durations.count)
        }
        text.family("feed_http_requests_in_flight", "gauge", "Requests being answered now, this scrape included.")
        text.sample("feed_http_requests_in_flight", metrics.requestsInFlight)
    }

    /// The process collector's families, those the system gave.
    static func write(process: ProcessStats, into text: inout MetricsText) {
        let families: [(name: String, type: String, help: String, value: Double?)] = [
            ("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", process.cpuSeconds),
            ("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", process.residentBytes.map(Double.init)),
            ("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", process.virtualBytes.map(Double.init)),
            ("process_open_fds", "gauge", "Number of open file descriptors.", process.openFileDescriptors.map(Double.init)),
            ("process_max_fds", "gauge", "Maximum number of open file descriptors.", process.maxFileDescriptors.map(Double.init)),
            ("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", process.startTime),
        ]
        for family in families {
            guard let value = family.value else { continue }
            text.family(family.name, family.type, family.help)
            text.sample(family.name, value)
        }
    }
}
