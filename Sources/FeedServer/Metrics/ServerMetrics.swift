import FeedCore
import Synchronization

/// The requests this server has answered since it started, by method, route and status: what
/// `GET /metrics` reports (``MetricsRoutes``), fed by ``RequestRecordMiddleware`` once each
/// response is answered (a body in one buffer) or written (a streamed one). Routes are their
/// patterns as openapi.yaml writes them (`/media/roll/{id}`), never the paths asked, so the
/// number of series stays bounded by the routes; a request no route took is counted under
/// `unmatched`, and a method HTTP does not define under `other`.
final class ServerMetrics: Sendable {
    /// The route label of a request no route took (an unknown path, or a method the path lacks).
    static let unmatched = "unmatched"

    /// One method on one route.
    struct Key: Hashable, Sendable {
        let method: String
        let route: String
    }

    /// What one method on one route has answered.
    struct Tally: Sendable {
        /// Responses per status code.
        var statuses: [Int: Int] = [:]
        /// Body bytes sent (a file sent with `sendfile` included).
        var bytes = 0
        /// From the request's arrival to its answer, or for a streamed body to its last byte
        /// written or its client gone (``RequestRecordMiddleware``).
        var durations = DurationHistogram()
    }

    /// FeedCore's `Locked`, not `Mutex`: ThreadSanitizer follows it under contention.
    private let tallies = Locked<[Key: Tally]>([:])
    private let inFlight = Atomic<Int>(0)

    /// The methods counted by name; any other (a client may send any token) is `other`, so a
    /// client cannot make the series grow without bound.
    static let namedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// A request arrived; every call is matched by one ``finished(method:route:status:bytes:seconds:)``.
    func started() {
        inFlight.add(1, ordering: .relaxed)
    }

    /// A request's response has been written (or its client went).
    func finished(method: String, route: String, status: Int, bytes: Int, seconds: Double) {
        inFlight.subtract(1, ordering: .relaxed)
        let key = Key(method: Self.namedMethods.contains(method) ? method : "other", route: route)
        tallies.withLock { $0[key, default: Tally()].record(status: status, bytes: bytes, seconds: seconds) }
    }

    /// Requests being answered now (a scrape counts itself).
    var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Every method and route that has answered, with its tally, sorted by route then method.
    func snapshot() -> [(key: Key, tally: Tally)] {
        tallies.withLock { $0.map { (key: $0.key, tally: $0.value) } }
            .sorted { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) }
    }
}

extension ServerMetrics.Tally {
    /// Counts one response.
    mutating func record(status: Int, bytes: Int, seconds: Double) {
        statuses[status, default: 0] += 1
        self.bytes += bytes
        durations.observe(seconds)
    }
}
