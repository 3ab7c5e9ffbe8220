import FeedTestSupport
import Foundation
import Testing

/// `feed serve` on PostgreSQL through `Scripts/pg_outage_proxy.py`, which plays an outage.
@Suite("feed serve on PostgreSQL: an outage", .enabled(if: TestPostgres.tlsURL != nil || TestPostgres.isRequired))
struct ServePostgresOutageTests {
    static let proxyScript = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/pg_outage_proxy.py")

    @Test("""
    after an outage long enough that the pool waits 5 s between attempts, /healthz is 200 again \
    within 4 s of the database coming back (the pool alone waits out its backoff, 6 s and more)
    """)
    func recovery() async throws {
        let tcp = try #require(TestPostgres.tlsURL.flatMap(URLComponents.init(string:)), "FEED_TEST_POSTGRES_TLS is not set")
        let database = try #require(URLComponents(string: try await TestPostgres.newDatabase())?.path)
        let scratch = try ScratchFolder()
        let log = scratch.url("proxy.log")
        let proxy = try await ScriptedServer(try String(contentsOf: Self.proxyScript, encoding: .utf8),
                                             arguments: [String(try #require(tcp.port)), log.path])
        defer { proxy.stop() }
        let media = scratch.url("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let url = "postgres://\(tcp.user ?? "postgres")@127.0.0.1:\(proxy.port)\(database)?sslmode=disable"
        let server = try await ServeProcess(["--jobs", "0", "--catalog-timeout", "2"],
                                            environment: ["FEED_CATALOG": url, "FEED_MEDIA": media.path])
        #expect(try await server.curl("/healthz").status == 200, "\(server.stderr)")

        // The database goes away. The server is asked meanwhile, as a load balancer would, until
        // the proxy has seen the pool wait 5 s between two attempts (about 30 s of outage).
        proxy.child.signal(SIGUSR1)
        func events() -> [(seconds: Double, what: String)] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ")
                guard parts.count == 2, let seconds = Double(parts[0]) else { return nil }
                return (seconds, String(parts[1]))
            }
        }
        func poolGap() -> Double {
            let pool = events().filter { $0.what == "pool" }.map(\.seconds)
            return pool.count < 2 ? 0 : pool[pool.count - 1] - pool[pool.count - 2]
        }
        let backedOff = try await waitUntil(timeout: 90, every: 0.5) {
            let health = try await server.curl("/healthz")
            #expect(health.status == 503, "\(health.text)")
            return poolGap() >= 5
        }
        try #require(backedOff, "the pool's attempts: \(events())")

        // Back right after one of the pool's attempts: it would try again 6 s later at the earliest.
        proxy.child.signal(SIGUSR2)
        try #require(try await waitUntil(timeout: 30, every: 0.1) { events().contains { $0.what == "up" } }, "\(events())")
        let back = ContinuousClock.now
        let healthy = try await waitUntil(timeout: 30, every: 0.1) { try await server.curl("/healthz").status == 200 }
        let waited = (ContinuousClock.now - back) / .seconds(1)
        #expect(healthy && waited < 4, "/healthz was 503 for \(waited) s after the database came back; the pool's last gap was \(poolGap()) s")
        let comment = try await server.curl("/comments", ["-X", "POST", "-H", "Content-Type: application/json",
                                                          "--data-binary", #"{"username":"ann","comment":"back"}"#])
        #expect(comment.status == 201, "\(comment.text)")
        await server.stop()
    }
}
