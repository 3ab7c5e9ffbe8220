import FeedTestSupport
import Foundation
import Testing

/// `GET /metrics` of a real `feed serve`, read by Prometheus' own Python client library
/// (`prometheus_client` from PyPI, in `.build/prometheus-venv`, made once): its parser takes
/// the text, and what it reads is what curl's requests did, the bytes of files sent with
/// `sendfile` included.
@Suite("feed serve: /metrics as Prometheus reads it")
struct ServeMetricsTests {
    private static let setup = Task {
        let venv = PyPIVenv(name: "prometheus-venv", package: "prometheus-client", probe: ["-c", "import prometheus_client.parser"])
        return await venv.make().map { venv.bin("python") }
    }

    /// Parses a scrape with `prometheus_client.parser`: per sample its name, labels and value,
    /// and per family its type, as JSON.
    static func parse(_ text: String) async throws -> (samples: [(name: String, labels: [String: String], value: Double)], types: [String: String]) {
        let python = try await setup.value.get()
        let scratch = try ScratchFolder()
        let input = scratch.path("metrics.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            families = list(text_string_to_metric_families(open(sys.argv[1]).read()))
            print(json.dumps({"types": {f.name: f.type for f in families},
                              "samples": [[s.name, s.labels, s.value] for f in families for s in f.samples]}))
            """
        let run = try await Tool.run(python, ["-c", script, input], limited: false)
        #expect(run.status == 0, "prometheus_client refused the text: \(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let samples = (object["samples"] as? [[Any]] ?? []).compactMap { row -> (String, [String: String], Double)? in
            guard row.count == 3, let name = row[0] as? String, let labels = row[1] as? [String: String],
                  let value = (row[2] as? NSNumber)?.doubleValue else { return nil }
            return (name, labels, value)
        }
        return (samples.map { (name: $0.0, labels: $0.1, value: $0.2) }, object["types"] as? [String: String] ?? [:])
    }

    @Test("ranges and whole files sent with sendfile are counted byte for byte; the parser takes every family")
    func media() async throws {
        let home = try RollHome()
        let clip = try home.clip("clip.mp4", seed: 5, width: 128, height: 96, frames: 30)
        #expect(try await home.run(["roll", "add", clip]).status == 0)
        let server = try await ServeProcess([], home: home)
        let range = try await server.curl("/media/roll/1", ["-r", "0-999"])
        #expect(range.status == 206 && range.body.count == 1000)
        let whole = try await server.curl("/media/roll/1")
        #expect(whole.status == 200 && whole.body.count > 1000)
        #expect(try await server.curl("/media/roll/99").status == 404)
        #expect(try await server.curl("/nowhere").status == 404)

        let scrape = try await server.curl("/metrics")
        #expect(scrape.status == 200 && scrape.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let (samples, types) = try await Self.parse(scrape.text)
        func value(_ name: String, _ labels: [String: String]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }
        let route = ["method": "GET", "route": "/media/roll/{id}"]
        #expect(value("feed_http_requests_total", route.merging(["status": "206"]) { $1 }) == 1)
        #expect(value("feed_http_requests_total", route.merging(["status": "200"]) { $1 }) == 1)
        #expect(value("feed_http_requests_total", route.merging(["status": "404"]) { $1 }) == 1)
        #expect(value("feed_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 1)
        let problem = try #require(try await server.curl("/media/roll/99").body.count as Int?)
        #expect(value("feed_http_response_body_bytes_total", route) == Double(1000 + whole.body.count + problem),
                "the range, the whole file and the 404's problem details, to the byte")
        #expect(value("feed_http_request_duration_seconds_count", route) == 3)
        #expect(value("feed_http_request_duration_seconds_bucket", route.merging(["le": "+Inf"]) { $1 }) == 3)
        #expect(value("feed_recordings", [:]) == 1 && value("feed_catalog_up", [:]) == 1 && value("feed_jobs", ["state": "queued"]) == 0)
        #expect(types["feed_http_requests"] == "counter" && types["feed_http_request_duration_seconds"] == "histogram"
            && types["feed_jobs"] == "gauge" && types["process_cpu_seconds"] == "counter", "\(types)")
        let started = try #require(value("process_start_time_seconds", [:]))
        #expect(abs(started - Date().timeIntervalSince1970) < 600, "the server started moments ago")
        #expect(try #require(value("process_open_fds", [:])) >= 5, "the listening socket, the catalog, stdio")
        // The access log still has its line per request.
        #expect(server.stderr.contains("GET /media/roll/1 206 1000 "), "\(server.stderr)")
        await server.stop()
    }

    @Test("an event stream is in flight while it is open, and recorded with the bytes it sent once its client goes")
    func stream() async throws {
        let server = try await ServeProcess([])
        // A client reads the stream until the test has seen it in flight and it has brought
        // events, then goes.
        let scratch = try ScratchFolder()
        let output = scratch.url("events")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "-o", output.path, server.base + "/comments/live?interval=0.05"]
        process.standardInput = FileHandle.nullDevice
        let client = try ChildProcess(process)
        func scrape() async throws -> String { try await server.curl("/metrics").text }
        #expect(try await waitUntil(timeout: 60) { try await scrape().contains("\nfeed_http_requests_in_flight 2\n") },
                "the stream and the scrape")
        #expect(try await waitUntil(timeout: 60) { ((try? Data(contentsOf: output))?.count ?? 0) > 0 }, "events arrive")
        _ = await client.stop(SIGKILL, timeout: 10)
        let streamed = (body: try Data(contentsOf: output), status: 200)
        #expect(streamed.body.count > 0 && String(decoding: streamed.body, as: UTF8.self).hasPrefix("event: comment"))
        let line = #"feed_http_requests_total{method="GET",route="/comments/live",status="200"} 1"#
        let recorded = try await waitUntil(timeout: 60) { try await scrape().contains(line + "\n") }
        let text = try await scrape()
        #expect(recorded, "\(text)")
        let bytes = text.split(separator: "\n").first { $0.hasPrefix(#"feed_http_response_body_bytes_total{method="GET",route="/comments/live"}"#) }
        // What the server handed the connection: what curl read, and what was still on its way
        // when curl left.
        let sent = try #require(bytes.flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }, "\(text)")
        #expect(sent >= streamed.body.count && sent < streamed.body.count + 256 * 1024, "\(sent) against \(streamed.body.count) read")
        #expect(text.contains("\nfeed_http_requests_in_flight 1\n"), "the stream is no longer counted")
        let logged = server.stderr.split(separator: "\n").first { $0.hasPrefix("GET /comments/live?") || $0.hasPrefix("GET /comments/live ") }
        #expect(logged?.hasPrefix("GET /comments/live 200 \(sent) ") == true && logged?.hasSuffix(" (client gone)") == true, "\(server.stderr)")
        // HEAD of the stream: its headers, no body, and no client that went.
        #expect(try await server.curl("/comments/live", ["-I"]).status == 200)
        let head = server.stderr.split(separator: "\n").first { $0.hasPrefix("HEAD /comments/live") }
        #expect(head?.hasPrefix("HEAD /comments/live 200 0 ") == true && head?.contains("gone") == false, "\(server.stderr)")
        await server.stop()
    }

    @Test("a body cut on purpose (--faults, drop-after=) is recorded with what was sent before the cut, as a client gone")
    func faults() async throws {
        let home = try RollHome()
        let clip = try home.clip("clip.mp4", seed: 6, width: 128, height: 96, frames: 30)
        #expect(try await home.run(["roll", "add", clip]).status == 0)
        let server = try await ServeProcess(["--faults"], home: home)
        for path in ["/videos", "/media/roll/1"] {
            let cut = try await Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", "-H", "X-Feed-Fault: drop-after=1000",
                                                           server.base + path])
            #expect(cut.stdout == "1000", "\(path): \(cut.stdout)")
        }
        let text = try await server.curl("/metrics").text
        let samples = try await Self.parse(text).samples
        for route in ["/videos", "/media/roll/{id}"] {
            let bytes = samples.first { $0.name == "feed_http_response_body_bytes_total" && $0.labels == ["method": "GET", "route": route] }?.value
            #expect(bytes == 1000, "\(route): \(text)")
        }
        let lines = server.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("GET /videos 200 1000 ") && $0.hasSuffix(" (client gone)") }, "\(server.stderr)")
        #expect(lines.contains { $0.hasPrefix("GET /media/roll/1 200 1000 ") && $0.hasSuffix(" (client gone)") }, "\(server.stderr)")
        await server.stop()
    }
}
