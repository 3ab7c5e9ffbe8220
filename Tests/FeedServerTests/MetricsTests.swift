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
struct MetricsTests {
    @Test("requests are counted by method, route pattern and status, with their body bytes and durations; the scrape counts itself next time")
    func requests() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let videos = try await client.execute(uri: "/videos", method: .get)
            #expect(try await client.execute(uri: "/videos", method: .get).body == videos.body)
            #expect(try await client.execute(uri: "/videos/999999", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/videos/1450", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/no/such/path", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/videos", method: .post).status == .methodNotAllowed)
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
            #expect(requests("GET", "unmatched", 404) == 1 && requests("POST", "unmatched", 405) == 1)
            #expect(requests("HEAD", "/videos", 200) == 1)
            #expect(requests("other", "unmatched", 405) == 2 && requests("BREW", "unmatched", 405) == nil, "methods HTTP lacks are one series")
            #expect(requests("GET", "/metrics", 200) == nil, "a scrape is counted once it is written")
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "GET", "route": "/videos"]) == Double(2 * videos.body.readableBytes))
            #expect(m.value("feed_http_response_body_bytes_total", ["method": "HEAD", "route": "/videos"]) == 0)
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

            try await f.addRecordings(3)
            let queue = f.roll.jobStore
            _ = try await queue.enqueue(.noop, maxAttempts: 5)
            let cancelled = try await queue.enqueue(.noop, maxAttempts: 5)
            _ = try await queue.cancel(id: cancelled.id)
            _ = try await queue.enqueue(.noop, maxAttempts: 5)
            _ = try #require(try await queue.claim(worker: "w:1", lease: 600))
            m = try Samples(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(m.value("feed_recordings", [:]) == 3)
            #expect(m.value("feed_jobs", ["state": "queued"]) == 1 && m.value("feed_jobs", ["state": "running"]) == 1
                && m.value("feed_jobs", ["state": "cancelled"]) == 1 && m.value("feed_jobs", ["state": "dead"]) == 0, "\(m.all("feed_jobs"))")
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

    @Test("the text format: numbers, escaped label values and help, cumulative buckets with inclusive bounds")
    func format() {
        #expect(MetricsText.number(3) == "3" && MetricsText.number(0.25) == "0.25" && MetricsText.number(.infinity) == "+Inf"
            && MetricsText.number(.nan) == "NaN" && MetricsText.number(-2) == "-2")
        #expect(MetricsText.escapedLabel(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        var text = MetricsText()
        text.family("x_total", "counter", "Lines\nand a \\.")
        text.sample("x_total", [("route", "/a/{id}"), ("q", "\"")], 2)
        text.sample("y", 1.5)
        #expect(text.text == "# HELP x_total Lines\\nand a \\\\.\n# TYPE x_total counter\nx_total{route=\"/a/{id}\",q=\"\\\"\"} 2\ny 1.5\n")

        var histogram = DurationHistogram()
        for seconds in [0.001, 0.0011, 0.3, 61] { histogram.observe(seconds) }
        let cumulative = histogram.cumulative
        #expect(cumulative.first == 1, "a bound is inclusive: 0.001 s is in le=0.001")
        #expect(cumulative[DurationHistogram.bounds.firstIndex(of: 0.0025)!] == 2)
        #expect(cumulative[DurationHistogram.bounds.firstIndex(of: 0.5)!] == 3)
        #expect(cumulative.last == 3 && histogram.count == 4, "61 s is past the last bound: +Inf only")
        #expect(abs(histogram.sum - 61.3021) < 1e-9)
    }
}

/// Samples of a Prometheus text exposition, parsed just enough for these tests: `# TYPE`
/// lines, and `name{k="v",…} value` lines with the format's three escapes.
struct Samples {
    struct Sample { let name: String; let labels: [String: String]; let value: Double }
    private(set) var samples: [Sample] = []
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                types[String(words[2])] = String(words[3])
                continue
            }
            if line.hasPrefix("#") { continue }
            var rest = Substring(line)
            let name = String(rest.prefix { $0 != "{" && $0 != " " })
            rest = rest.dropFirst(name.count)
            var labels: [String: String] = [:]
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    let key = String(rest.prefix { $0 != "=" })
                    rest = rest.dropFirst(key.count + 2)  // key="
                    var value = ""
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        if c == "\\", let e = rest.first {
                            rest = rest.dropFirst()
                            value.append(e == "n" ? "\n" : e)
                        } else {
                            value.append(c)
                        }
                    }
                    rest = rest.dropFirst()  // "
                    if rest.first == "," { rest = rest.dropFirst() }
                    labels[key] = value
                }
                rest = rest.dropFirst()
            }
            let number = rest.trimmingCharacters(in: .whitespaces)
            let value = number == "+Inf" ? Double.infinity : try #require(Double(number), "\(line)")
            samples.append(Sample(name: name, labels: labels, value: value))
        }
    }

    /// The value of the one sample named `name` with exactly `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// Every sample named `name`, in the text's order.
    func all(_ name: String) -> [Sample] { samples.filter { $0.name == name } }

    /// A family's `# TYPE`.
    func type(_ name: String) -> String? { types[name] }
}
