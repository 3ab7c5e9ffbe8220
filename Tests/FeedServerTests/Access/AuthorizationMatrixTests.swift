import FeedCore
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer
@testable import FeedAccess

/// Every route × every kind of caller, against ``AccessRule``'s table, which docs/server.md shows
/// ("Who may call what").
@Suite("Authorization matrix")
struct AuthorizationMatrixTests {
    /// A concrete path for a route pattern.
    static func sample(_ route: String) -> String {
        route.replacingOccurrences(of: "/roll/{id}/hls/{rung}/{file}", with: "/roll/1/hls/240p/index.m3u8")
            .replacingOccurrences(of: "/uploads/{id}", with: "/uploads/0123456789abcdef")
            .replacingOccurrences(of: "/videos/{id}", with: "/videos/1235")
            .replacingOccurrences(of: "/posts/{id}/{index}", with: "/posts/1/0")
            .replacingOccurrences(of: "{name}", with: "alice")
            .replacingOccurrences(of: "{id}", with: "1")
    }

    @Test("every route the server registers has a row, and every row is a route")
    func everyRouteHasARow() throws {
        let table = RouteTable()
        _ = try ServerFixture().server.router(table: table)
        let registered = Set(table.routes.filter { $0.method != .head || AccessRule.table["HEAD \($0.path)"] != nil }
            .map { "\($0.method.rawValue) \($0.path)" })
        let rows = Set(AccessRule.table.keys)
        #expect(registered.subtracting(rows).isEmpty, "routes without a row in AccessRule.table: \(registered.subtracting(rows).sorted())")
        #expect(rows.subtracting(registered).isEmpty, "rows without a route: \(rows.subtracting(registered).sorted())")
    }

    @Test("docs/server.md's table is AccessRule's, row for row")
    func serverPage() throws {
        let page = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("docs/server.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`"), cells[0].contains(" /") else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1] + " | " + cells[2]
        }
        for (route, rule) in AccessRule.table {
            let expected = (rule.scope.map { "`\($0.rawValue)`" } ?? "nothing") + " | " + (rule.links ? "yes" : "no")
            #expect(rows[route] == expected, "docs/server.md row for \(route): \(rows[route] ?? "missing"), want \(expected)")
        }
        #expect(Set(rows.keys) == Set(AccessRule.table.keys), "docs/server.md rows that are not routes: \(Set(rows.keys).subtracting(AccessRule.table.keys))")
    }

    @Test("no token, expired, a foreign key, each scope alone (upload includes read), a user and the admin: 401 and 403 exactly where the table says",
          arguments: OwnershipTests.Catalog.allCases)
    func matrix(catalog: OwnershipTests.Catalog) async throws {
        if catalog == .postgres && TestPostgres.url == nil {
            #expect(!TestPostgres.isRequired, "FEED_REQUIRE_POSTGRES is set but no cluster runs")
            return
        }
        let f = try await OwnershipTests.fixture(catalog).0
        let expired = try await f.token("alice", [.read, .upload, .admin], ttl: 1)
        f.clock.advance(5)
        let callers: [(name: String, headers: HTTPFields, scopes: Set<Scope>?)] = [
            ("no token", [:], nil),
            ("expired", AccessFixture.bearer(expired), nil),
            ("foreign key", AccessFixture.bearer(try await f.foreignToken("alice")), nil),
            ("read", AccessFixture.bearer(try await f.token("reader", [.read])), [.read]),
            ("upload", AccessFixture.bearer(try await f.token("writer", [.upload])), [.upload]),
            ("user", AccessFixture.bearer(try await f.token("alice", [.read, .upload])), [.read, .upload]),
            ("admin JWT", AccessFixture.bearer(try await f.token("ops", [.admin])), [.admin]),
            ("--token", AccessFixture.bearer(AccessFixture.adminToken), [.admin]),
        ]
        let streams: Set<String> = ["GET /comments/live", "GET /jobs/{id}/events"]
        try await f.server.test { client in
            for (route, rule) in AccessRule.table.sorted(by: { $0.key < $1.key }) {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!, path = Self.sample(String(parts[1]))
                for caller in callers {
                    // admin includes every scope, upload includes read.
                    let allowed = rule.scope.map { scope in
                        caller.scopes.map { $0.contains(scope) || $0.contains(.admin) || (scope == .read && $0.contains(.upload)) } ?? false
                    } ?? true
                    // An endless stream is only asked where it is refused (its refusal comes before it starts).
                    if allowed && streams.contains(route) { continue }
                    let response = try await client.execute(uri: path, method: method, headers: caller.headers)
                    let cell = "\(route) as \(caller.name): \(response.status.code) \(response.text.prefix(160))"
                    if allowed {
                        #expect(response.status != .unauthorized && response.status != .forbidden, "\(cell)")
                    } else if caller.scopes == nil {
                        #expect(response.status == .unauthorized && (method == .head || response.error?.kind == "unauthorized"), "\(cell)")
                        #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, "\(cell)")
                    } else {
                        #expect(response.status == .forbidden && (method == .head || response.error?.kind == "forbidden"), "\(cell)")
                        #expect(response.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true, "\(cell)")
                    }
                }
            }
        }
    }

    @Test("an open server (no key, no token) lets anyone do anything, as before there were users")
    func open() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let like = try await client.execute(uri: "/videos/1235/like", method: .put)
            let likes = try await client.execute(uri: "/likes", method: .get)
            #expect(like.status == .ok && likes.status == .ok)
        }
    }
}
