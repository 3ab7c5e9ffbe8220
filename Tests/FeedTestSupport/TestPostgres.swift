import FeedCore
import FeedPostgres
import Foundation

/// The throwaway PostgreSQL cluster `make test` starts (scripts/with-postgres.sh), if any.
///
/// `FEED_TEST_POSTGRES` is a superuser URL; every test makes a database of its own, so tests
/// running in parallel never see each other's rows. `make test` also sets
/// `FEED_REQUIRE_POSTGRES=1`, which turns a missing cluster into a failure, not a skip.
public enum TestPostgres {
    /// The cluster's URL, when one runs.
    public static var url: String? {
        ProcessInfo.processInfo.environment["FEED_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The same cluster over TCP with TLS on 127.0.0.1 (its certificate self-signed for the name
    /// `feed-test.invalid`), when one runs.
    public static var tlsURL: String? {
        ProcessInfo.processInfo.environment["FEED_TEST_POSTGRES_TLS"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// That certificate's PEM file: the one CA that signed it.
    public static var tlsCertificate: String? {
        ProcessInfo.processInfo.environment["FEED_TEST_POSTGRES_CA"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the PostgreSQL tests must run (`make test`, CI).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["FEED_REQUIRE_POSTGRES"] == "1" }

    /// A new empty database's URL (`feed_t_` and 16 hex digits).
    public static func newDatabase() async throws -> String {
        guard let url else { throw RollError.invalidArgument("FEED_TEST_POSTGRES is not set: run the tests with scripts/with-postgres.sh") }
        let name = "feed_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return try await PostgresAdmin.createDatabase(name, at: url)
    }

    /// A migrated catalog over a new database.
    public static func newCatalog() async throws -> PostgresCatalog {
        try await PostgresCatalog.open(try await newDatabase(), maximumConnections: 4)
    }
}
