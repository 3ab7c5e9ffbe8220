import FeedCore
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// `GET /metrics`: what the server counts of its requests, the catalog and the process, in
/// Prometheus' text format (its own parser checks the format over a real socket, in
/// FeedCLITests' ServeMetricsTests).
@Suite("GET /metrics")
struct MetricsRoutesTests {
    @Test("requests are counted by method, route pattern and status, with their body bytes and durations; the scrape counts itself next time")
    func requests() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let videos = try await client.execute(uri: "/videos", method: .get)
            #expect(try await client.execute(uri: "/videos", method: .get).body == videos.body)
            let missing = try await client.execute(uri: "/videos/999999", method: .get)
            #expect(missing.status == .notFound)
            let found = try await client.execute(uri: "/videos/1450", method: .get)
            #expect(found.status == .ok)
            #expect(try await client.execute(uri: "/videos/999999", method: .head).status == .notFound)
            #expect(try await client.execute(uri: "/no/such/path", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/videos", method: .put).status == .methodNotAllowed)
            #expect(try await client.execute(uri: "/videos", method: .head).status == .ok)
            for name in ["BREW", "WHEN"] {
                #expect(try await client.execute(uri: "/videos", method: try #require(HTTPRequest.Method(name))).status == .methodNotAllowed)
            }

            let scrape = try await client.execute(uri: "/metrics", method: .get)
            #expect(scrape.status == .ok)
            #expect(scrape.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8" && scrape.headers[.cacheControl] == "no-store")
            let m = try Samples(scrape.text)
            func requests(_ method: String, _ route: String, _ status: Int) -> Double? {
                m.value("feed_http_requests_total", ["method": method, "route": route, "status": String(status)])
            }
            #expect(requests("GET", "/videos", 200) == 2)
            #expect(requests("GET", "/videos/{id}", 404) == 1 && requests("GET", "/videos/{id}", 200) == 1, "one route, whatever the id")
            #expect(requests("GET", "unmatched", 404) == 1 && requests("PUT", "unmatched", 405) == 1)
            #expect(requests("HEAD", "/videos", 200) == 1)
            #expect(requests("other", "unmatched", 405) == 2 && requests("BREW", "unmatched", 405) == nil, "methods HTTP lacks are one series")
            #expect(requests("GET", "/metrics", 200) == nil, "a scrape is counted once it is written")
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "GET", "route": "/videos"]) == Double(2 * videos.body.readableBytes))
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "HEAD", "route": "/videos"]) == 0)
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "GET", "route": "/videos/{id}"])
                == Double(missing.body.readableBytes + found.body.readableBytes), "a problem's body counts too")
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "HEAD", "route": "/videos/{id}"]) == 0, "HEAD sends no body, error or not")
            #expect(m.value("feed_http_requests_in_flight", [:]) == 1, "the scrape itself")

            // The histogram: cumulative buckets ending at +Inf = _count; the sum is the time taken.
            let labels = ["method": "GET", "route": "/videos"]
            let buckets = m.all("feed_http_request_duration_seconds_bucket").filter { $0.labels["route"] == "/videos" && $0.labels["method"] == "GET" }
            #expect(buckets.count == DurationHistogram.bounds.count + 1 && buckets.last?.labels["le"] == "+Inf")
            #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $0.value <= $1.value }, "cumulative")
            #expect(buckets.last?.value == 2 && m.value("feed_http_request_duration_seconds_count", labels) == 2)
            let sum = try #require(m.value("feed_http_request_duration_seconds_sum", labels))
            #expect(sum > 0 && sum < 10)

            #expect(m.type("feed_http_requests_total") == "counter" && m.type("feed_http_request_duration_seconds") == "histogram"
                && m.type("feed_jobs") == "gauge" && m.type("process_resident_memory_bytes") == "gauge")

            let again = try Samples(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(again.value("feed_http_requests_total", ["method": "GET", "route": "/metrics", "status": "200"]) == 1)
            #expect(again.value("feed_http_requests_total", ["method": "GET", "route": "/videos", "status": "200"]) == 2)
        }
    }

    @Test("the roll's recordings and the queue's jobs by state come from the catalog at each scrape")
    func catalog() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            var m = try Samples(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(m.value("feed_catalog_up", [:]) == 1 && m.value("feed_recordings", [:]) == 0)
            #expect(Job.State.allCases.allSatisfy { m.value("feed_jobs", ["state": $0.rawValue]) == 0 }, "every state, zeros included")
            #expect(m.value("feed_jobs_due", [:]) == 0)

            try await f.addRecordings(3)
            let queue = f.roll.catalog
            _ = try await queue.enqueue(.noop, maxAttempts: 5)
            let cancelled = try await queue.enqueue(.noop, maxAttempts: 5)
            _ = try await queue.cancel(id: cancelled.id)
            _ = try await queue.enqueue(.noop, maxAttempts: 5)
            _ = try #require(try await queue.claim(worker: "w:1", lease: 600))
            m = try Samples(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(m.value("feed_recordings", [:]) == 3)
            #expect(m.value("feed_jobs", ["state": "queued"]) == 1 && m.value("feed_jobs", ["state": "running"]) == 1
                && m.value("feed_jobs", ["state": "cancelled"]) == 1 && m.value("feed_jobs", ["state": "dead"]) == 0, "\(m.all("feed_jobs"))")
            #expect(m.value("feed_jobs_due", [:]) == 1, "the queued one is due")
        }
    }

    @Test("the process: CPU, memory, file descriptors and start time, under the client libraries' names")
    func process() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let m = try Samples(try await client.execute(uri: "/metrics", method: .get).text)
            let resident = try #require(m.value("process_resident_memory_bytes", [:]))
            let virtual = try #require(m.value("process_virtual_memory_bytes", [:]))
            #expect(resident > 1_000_000 && virtual >= resident)
            let open = try #require(m.value("process_open_fds", [:])), max = try #require(m.value("process_max_fds", [:]))
            #expect(open >= 3 && open <= max)
            #expect(try #require(m.value("process_cpu_seconds_total", [:])) > 0)
            let start = try #require(m.value("process_start_time_seconds", [:]))
            let now = Date().timeIntervalSince1970
            #expect(start <= now + 1 && start > now - 24 * 3600, "this test process started today: \(start) vs \(now)")
        }
    }

    @Test("on a server with a key only an admin scrapes; refused requests are counted under their route")
    func access() async throws {
        let a = try await AccessFixture()
        let reader = try await a.token("alice", [.read, .upload])
        try await a.server.test { client in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let refused = try await client.execute(uri: "/metrics", method: .get, headers: AccessFixture.bearer(reader))
            #expect(refused.status == .forbidden && refused.error?.kind == "forbidden", "\(refused.text)")
            #expect(try await client.execute(uri: "/videos", method: .get).status == .unauthorized)
            let scrape = try await client.execute(uri: "/metrics", method: .get, headers: AccessFixture.bearer(AccessFixture.adminToken))
            #expect(scrape.status == .ok)
            let m = try Samples(scrape.text)
            #expect(m.value("feed_http_requests_total", ["method": "GET", "route": "/metrics", "status": "401"]) == 1)
            #expect(m.value("feed_http_requests_total", ["method": "GET", "route": "/metrics", "status": "403"]) == 1)
            #expect(m.value("feed_http_requests_total", ["method": "GET", "route": "/videos", "status": "401"]) == 1)
        }
    }
}
