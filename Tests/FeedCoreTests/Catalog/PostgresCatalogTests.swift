import Foundation
import FeedPostgres
import FeedTestSupport
import Testing
@testable import FeedCore

/// What only the PostgreSQL catalog does: its URL, its migrations under the advisory lock,
/// its notifications. The protocol suites (`RecordingCatalogTests`, `JobStoreTests`, …) run
/// against it through ``CatalogFactory``.
@Suite("PostgresCatalog")
struct PostgresCatalogTests {
    @Test("make test runs the PostgreSQL tests: a missing cluster fails rather than skips")
    func clusterPresent() {
        #expect(!TestPostgres.isRequired || TestPostgres.url != nil, "FEED_REQUIRE_POSTGRES=1 but FEED_TEST_POSTGRES is not set")
    }

    @Test("URLs: host, port, socket folder, sslmode, the user from the environment; the password never shown")
    func urls() throws {
        let tcp = try PostgresLocation("postgres://feed:s3cret@db.internal:6432/catalog?sslmode=require", environment: [:])
        #expect(tcp.host == "db.internal" && tcp.port == 6432 && tcp.username == "feed" && tcp.password == "s3cret")
        #expect(tcp.database == "catalog" && tcp.tls == .require && tcp.socketPath == nil)
        #expect(tcp.description == "postgres://feed@db.internal:6432/catalog")
        let socket = try PostgresLocation("postgresql:///feed?host=/tmp/pg", environment: ["USER": "ann"])
        #expect(socket.socketPath == "/tmp/pg/.s.PGSQL.5432" && socket.username == "ann" && socket.database == "feed")
        #expect(throws: RollError.self) { try PostgresLocation("postgres://u:pw@h/db?sslmode=bogus", environment: [:]) }
        do {
            _ = try PostgresLocation("postgres://u:pw@h:99999/db", environment: [:])
            Issue.record("port 99999 was accepted")
        } catch {
            #expect(!error.description.contains("pw") && error.description.contains("***"))
        }
        // libpq's sslmode names, and sslrootcert for the two that check the certificate.
        let full = try PostgresLocation("postgres://u@h/db?sslmode=verify-full&sslrootcert=/etc/ca.pem", environment: [:])
        #expect(full.tls == .verifyFull && full.rootCertificates == "/etc/ca.pem")
        #expect(try PostgresLocation("postgres://u@h/db?sslmode=verify-ca", environment: [:]).tls == .verifyCA)
        #expect(try PostgresLocation("postgres://u@h/db", environment: [:]).tls == .prefer)
        // A socket on another port says so, so the URL in a message reaches the same server.
        let other = try PostgresLocation("postgres://u@/db?host=/tmp/pg&port=6000", environment: [:])
        #expect(other.socketPath == "/tmp/pg/.s.PGSQL.6000" && other.description == "postgres://u@/db?host=/tmp/pg&port=6000")
        #expect(try PostgresLocation(other.description, environment: [:]) == other)
    }

    @Test("a URL that is no URL, or that a URL parser splits in the wrong place: its password is still never shown",
          arguments: ["postgres://feed:pa#ss@h/feed", "postgres://feed:pa/ss@h/feed", "postgres://u:secret@h:abc/db",
                      "postgres://feed:hunter2@db:5432:5433/feed", "postgres://u:p@ss@[::1", "postgres://u@h/db?password=hunter2&sslmode=bogus"])
    func passwordNeverShown(url: String) throws {
        let secret = ["pa#ss", "pa/ss", "secret", "hunter2", "p@ss"].first { url.contains($0) }!
        #expect(!PostgresLocation.redacted(url).contains(secret), "\(PostgresLocation.redacted(url))")
        do {
            _ = try PostgresLocation(url, environment: [:])
            Issue.record("\(url) was accepted")
        } catch {
            #expect(!error.description.contains(secret) && error.description.contains("***"), "\(error.description)")
        }
    }

    @Test("TLS as libpq's sslmode: prefer and require encrypt to a self-signed server; verify-ca trusts sslrootcert's CA only; verify-full also wants the host named",
          .enabled(if: TestPostgres.tlsURL != nil || TestPostgres.isRequired))
    func tls() async throws {
        let url = try #require(TestPostgres.tlsURL, "FEED_REQUIRE_POSTGRES=1 but FEED_TEST_POSTGRES_TLS is not set")
        let ca = try #require(TestPostgres.tlsCertificate)
        for mode in ["", "?sslmode=prefer", "?sslmode=require", "?sslmode=verify-ca&sslrootcert=\(ca)"] {
            let catalog = try await PostgresCatalog.open(url + mode, maximumConnections: 2)
            #expect(try await catalog.connectionIsEncrypted(), "\(mode)")
            await catalog.close()
        }
        func refusal(_ query: String) async -> String {
            do {
                let catalog = try await PostgresCatalog.open(url + query, maximumConnections: 2)
                await catalog.close()
                return "connected"
            } catch { return error.description }
        }
        let untrusted = await refusal("?sslmode=verify-ca")
        #expect(untrusted.contains("certificate is not signed by the system's trusted CAs (sslmode=verify-ca)"), "\(untrusted)")
        #expect(!untrusted.contains("\n") && !untrusted.contains(".build"), "\(untrusted)")
        let unnamed = await refusal("?sslmode=verify-full&sslrootcert=\(ca)")
        #expect(unnamed.contains("certificate does not name 127.0.0.1 (sslmode=verify-full)"), "\(unnamed)")
        let unreadable = await refusal("?sslmode=verify-ca&sslrootcert=/nonexistent/ca.pem")
        #expect(unreadable.contains("sslrootcert /nonexistent/ca.pem: cannot be read"), "\(unreadable)")
    }

    @Test("a server that is not there: one line naming the URL without its password and the connection's own reason")
    func unreachable() async throws {
        let folder = try ScratchFolder()
        do {
            _ = try await PostgresCatalog.open("postgres://feed:topsecret@/feed?host=\(folder.url.path)")
            Issue.record("opened a catalog with no server")
        } catch {
            #expect(error.kind == .io)
            #expect(error.description.hasPrefix("postgres://feed@/feed?host=\(folder.url.path)"), "\(error.description)")
            #expect(!error.description.contains("topsecret") && !error.description.contains("\n"))
            // The direct probe's failure, not the pool's deadline running out.
            #expect(error.description.contains("cannot connect") && !error.description.contains("no answer within"), "\(error.description)")
        }
    }

    @Test("processes migrating at once migrate once; a schema from a newer feed is refused untouched",
          .enabled(if: TestPostgres.url != nil))
    func migrations() async throws {
        let url = try await TestPostgres.newDatabase()
        let catalogs = try await withThrowingTaskGroup(of: PostgresCatalog.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresCatalog.open(url, maximumConnections: 2) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(catalogs.count == 4)
        let first = catalogs[0]
        _ = try await first.insert(CatalogFactory.recording(1), refusingDuplicates: true)
        #expect(try await catalogs[3].count() == 1)

        _ = try await first.addComment(username: "schema", text: "marker")
        try await first.markNewerSchema("v99 from the future")
        do {
            _ = try await PostgresCatalog.open(url)
            Issue.record("a newer schema was accepted")
        } catch {
            #expect(error == .newerSchema(path: first.location.description, unknownMigrations: ["v99 from the future"]))
        }
        #expect(try await first.count() == 1)
        for catalog in catalogs { await catalog.close() }
    }

    @Test("a worker waiting for jobs wakes when another process queues one (LISTEN/NOTIFY), not at its timeout",
          .enabled(if: TestPostgres.url != nil))
    func notifications() async throws {
        let url = try await TestPostgres.newDatabase()
        let worker = try await PostgresCatalog.open(url, maximumConnections: 2)
        let server = try await PostgresCatalog.open(url, maximumConnections: 2)
        defer { Task { await worker.close(); await server.close() } }
        // The first wait starts listening; give the LISTEN a moment, then time a wake-up.
        await worker.waitForJobs(timeout: 0.3)
        let started = ContinuousClock.now
        async let woke: Void = worker.waitForJobs(timeout: 20)
        try await Task.sleep(for: .milliseconds(200))
        _ = try await server.enqueue(.noop, maxAttempts: 5)
        await woke
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(5), "woke after \(waited)")
        #expect(try await worker.claim(worker: "w:1", lease: 30) != nil)
    }

    @Test("a wait for jobs ends as soon as its task is cancelled, not after its timeout", .enabled(if: TestPostgres.url != nil))
    func cancelledWait() async throws {
        let catalog = try await PostgresCatalog.open(try await TestPostgres.newDatabase(), maximumConnections: 2)
        let started = ContinuousClock.now
        let wait = Task { await catalog.waitForJobs(timeout: 600) }
        wait.cancel()
        await wait.value
        #expect(ContinuousClock.now - started < .seconds(60), "the cancelled wait returned at once")
        await catalog.close()
    }
}
