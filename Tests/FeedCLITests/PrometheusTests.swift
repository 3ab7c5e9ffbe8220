import FeedTestSupport
import Foundation
import Testing

/// packaging/prometheus as docs/machines.md gives it, run by Prometheus itself (Debian's
/// `prometheus`): the alert rules pass `promtool`'s check and their unit tests, and a real
/// Prometheus with the documented scrape configuration (addresses and paths replaced) scrapes a
/// real `feed serve` with its admin token, stores what curl's requests did, and evaluates every
/// rule without an error.
@Suite("Prometheus: the documented scrape configuration and alert rules")
struct PrometheusTests {
    static let folder = RepositoryFiles.root.appendingPathComponent("packaging/prometheus")

    @Test("promtool checks feed.rules.yml and its unit tests pass (each alert fires when it should, not before)")
    func rules() async throws {
        let check = try await Tool.run("/usr/bin/promtool", ["check", "rules", Self.folder.appendingPathComponent("feed.rules.yml").path])
        #expect(check.status == 0 && check.stdout.contains("SUCCESS: 6 rules found"), "\(check.stdout)\(check.stderr)")
        let test = try await Tool.run("/usr/bin/promtool", ["test", "rules", Self.folder.appendingPathComponent("feed.rules.test.yml").path])
        #expect(test.status == 0 && test.stdout.contains("SUCCESS"), "\(test.stdout)\(test.stderr)")
    }

    @Test("Prometheus scrapes feed serve with the documented configuration and its admin token, and evaluates the rules")
    func scrape() async throws {
        let scratch = try ScratchFolder()
        let tokenFile = scratch.path("feed.token")
        try Data("prom-s3cret-token\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        let server = try await ServeProcess(["--quiet", "--token", "prom-s3cret-token"])
        let target = try #require(URL(string: server.base)).host! + ":" + String(try #require(URL(string: server.base)?.port))
        let port = try await Tool.run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        var config = try String(contentsOf: Self.folder.appendingPathComponent("prometheus.yml"), encoding: .utf8)
        for (from, to) in [("scrape_interval: 15s", "scrape_interval: 1s"), ("evaluation_interval: 15s", "evaluation_interval: 1s"),
                           ("/etc/prometheus/feed.rules.yml", Self.folder.appendingPathComponent("feed.rules.yml").path),
                           ("/etc/prometheus/feed.token", tokenFile),
                           ("['web1.internal:8080', 'web2.internal:8080']", "['\(target)']")] {
            #expect(config.contains(from), "prometheus.yml no longer has \(from)")
            config = config.replacingOccurrences(of: from, with: to)
        }
        let configFile = scratch.path("prometheus.yml")
        try config.write(toFile: configFile, atomically: true, encoding: .utf8)
        let check = try await Tool.run("/usr/bin/promtool", ["check", "config", configFile])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        process.arguments = ["--config.file=\(configFile)", "--storage.tsdb.path=\(scratch.path("data"))",
                             "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = scratch.url("prometheus.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        let prometheus = try ChildProcess(process)
        let api = "http://127.0.0.1:\(port)/api/v1/"
        // Up once /-/ready answers 200 (connection refused until it listens).
        let ready = try await waitUntil(timeout: 60, every: 0.1) {
            let probe = try await Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                                                             "http://127.0.0.1:\(port)/-/ready"])
            return probe.stdout == "200" || prometheus.hasExited
        }
        try #require(ready && !prometheus.hasExited, "Prometheus did not start: \(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))")

        for _ in 0..<3 { #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer prom-s3cret-token"]).status == 200) }
        /// The value of `query`'s single result, or nil while there is none.
        func value(_ query: String) async throws -> String? {
            let reply = try await ServeProcess.curl(api + "query", ["-G", "--data-urlencode", "query=\(query)"])
            guard reply.status == 200, let data = (try? reply.json())?["data"] as? [String: Any],
                  let result = data["result"] as? [[String: Any]], result.count == 1 else { return nil }
            return (result[0]["value"] as? [Any])?.last as? String
        }
        let videos = #"feed_http_requests_total{job="feed",method="GET",route="/videos",status="200"}"#
        let scraped = try await waitUntil(timeout: 60, every: 0.25) { try await value(videos) == "3" }
        let prometheusLog = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        let stored = try await value(videos)
        #expect(scraped, "Prometheus stored \(String(describing: stored)) for \(videos); its log: \(prometheusLog)")
        #expect(try await value(#"up{job="feed"}"#) == "1")
        #expect(try await value(#"feed_catalog_up{job="feed"}"#) == "1")
        #expect(try await value(#"feed_jobs{job="feed",state="queued"}"#) == "0")

        // Every rule has been evaluated with no error.
        let evaluated = try await waitUntil(timeout: 30, every: 0.25) {
            let groups = ((try? await ServeProcess.curl(api + "rules").json())?["data"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
            let rules = groups.filter { $0["name"] as? String == "feed" }.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
            return rules.count == 6 && rules.allSatisfy { $0["health"] as? String == "ok" }
        }
        let rules = try await ServeProcess.curl(api + "rules").text
        #expect(evaluated, "\(rules)")
        // None fires on a healthy server.
        let alerts = try await ServeProcess.curl(api + "alerts").json()
        #expect(((alerts["data"] as? [String: Any])?["alerts"] as? [Any])?.isEmpty == true, "\(alerts)")

        #expect(await prometheus.stop(SIGTERM, timeout: 20) == 0)
        await server.stop()
    }
}
