import FeedTestSupport
import Foundation
import Testing

/// What `feed serve` on PostgreSQL answers when a request is bad or the database goes away: the
/// same as on SQLite, and nothing of the catalog's URL.
@Suite("feed serve on PostgreSQL: errors", .enabled(if: TestPostgres.url != nil))
struct ServePostgresErrorsTests {
    @Test("a comment holding NUL is 422 as on SQLite, not PostgreSQL's 500; a broken catalog is 500 naming no host, user or database, /healthz 503, and the log has it")
    func errors() async throws {
        let shared = try await SharedCatalog()
        let server = try await ServeProcess([], environment: shared.environment)
        let database = try #require(URLComponents(string: shared.url)?.path.dropFirst())

        let healthy = try await server.curl("/healthz")
        #expect(healthy.status == 200 && healthy.text == "{\"status\":\"ok\"}\n", "\(healthy.text)")
        let count = { () async throws -> Int? in try await server.curl("/comments").json()["comments"].map { ($0 as? [Any])?.count } ?? nil }
        let before = try await count()
        let nul = try await server.curl("/comments", ["-X", "POST", "-H", "Content-Type: application/json",
                                                      "--data-binary", #"{"username":"ann","comment":"x\u0000y"}"#])
        #expect(nul.status == 422 && nul.problem?.kind == "invalidData", "\(nul.text)")
        #expect(try await count() == before, "nothing was stored")

        // The catalog breaks under the running server.
        let drop = try await Tool.run("/usr/bin/psql", [shared.url, "-v", "ON_ERROR_STOP=1", "-qc", "DROP TABLE recording CASCADE"])
        #expect(drop.status == 0, "\(drop.stderr)")
        let gone = try await server.curl("/roll")
        #expect(gone.status == 500 && gone.problem?.kind == "io", "\(gone.text)")
        #expect(gone.problem?.detail == "GET /roll: internal error (the server's log has the details)", "\(gone.text)")
        for secret in [String(database), "postgres://", "/tmp", "host="] {
            #expect(!gone.text.contains(secret), "the answer names \(secret): \(gone.text)")
        }
        #expect(server.stderr.contains("GET /roll: ") && server.stderr.contains(String(database)), "\(server.stderr)")
        // The health check says so: 503, so a load balancer sends requests elsewhere.
        let sick = try await server.curl("/healthz")
        #expect(sick.status == 503 && sick.problem?.kind == "unavailable" && sick.headers["cache-control"] == "no-store", "\(sick.text)")
        #expect(sick.problem?.detail == "GET /healthz: the catalog does not answer (the server's log has the details)", "\(sick.text)")
        for secret in [String(database), "postgres://", "/tmp", "host="] {
            #expect(!sick.text.contains(secret), "the answer names \(secret): \(sick.text)")
        }
        #expect(server.stderr.contains("GET /healthz: the catalog does not answer: "), "\(server.stderr)")
        // The metrics still answer, saying the catalog does not (and leaving its figures out).
        let metrics = try await server.curl("/metrics")
        #expect(metrics.status == 200 && metrics.text.contains("\nfeed_catalog_up 0\n") && !metrics.text.contains("\nfeed_recordings "), "\(metrics.text)")
        #expect(metrics.text.contains("feed_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"503\"} 1\n"), "\(metrics.text)")
        #expect(server.stderr.contains("GET /metrics: the catalog does not answer: "), "\(server.stderr)")
        await server.stop()
    }
}
