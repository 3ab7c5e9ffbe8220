import FeedCore
import Foundation
import PostgresNIO

/// Set-up steps that need a role allowed to create databases (tests, benchmarks, first runs).
public enum PostgresAdmin {
    /// Creates database `name` through the server at `url` (whose own database must exist, such
    /// as `postgres`) and returns `url` pointing at the new database.
    /// - Throws: ``RollError/database(path:reason:)`` naming the server.
    public static func createDatabase(_ name: String, at url: String) async throws(RollError) -> String {
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), !name.isEmpty else {
            throw RollError.invalidArgument("\(name): a database name here is letters, digits and _")
        }
        let admin = try PostgresCatalog(try PostgresLocation(url), maximumConnections: 2)
        admin.start()
        defer { Task { await admin.close() } }
        try await admin.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        guard var parts = URLComponents(string: url) else { throw RollError.invalidArgument("\(url): not a URL") }
        parts.path = "/" + name
        return parts.string ?? url
    }
}

extension PostgresCatalog {
    /// Records migration `id` as applied without running anything: what a newer feed's
    /// migration looks like to this one (tests of the refusal).
    public func markNewerSchema(_ id: String) async throws(RollError) {
        try await execute("INSERT INTO feed_migration(id) VALUES (\(id))")
    }
}
