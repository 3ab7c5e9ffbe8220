import FeedCore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func addWebhook(url: String, secret: String) async throws(RollError) -> WebhookEndpoint {
        let now = (clock?.now() ?? Date()).timeIntervalSince1970
        let rows = try await rows("""
            INSERT INTO webhook(url, secret, created_at) VALUES (\(url), \(secret), \(now))
            ON CONFLICT (url) DO UPDATE SET secret = EXCLUDED.secret
            RETURNING id, url, secret, created_at
            """)
        return try await decoded {
            guard let row = rows.first else { throw RollError.database(path: location.description, reason: "the webhook was not returned") }
            return try Self.endpoint(row)
        }
    }

    public func webhooks() async throws(RollError) -> [WebhookEndpoint] {
        let rows = try await rows("SELECT id, url, secret, created_at FROM webhook ORDER BY id")
        return try await decoded { try rows.map(Self.endpoint) }
    }

    @discardableResult
    public func removeWebhook(id: Int64) async throws(RollError) -> Bool {
        try await !rows("DELETE FROM webhook WHERE id = \(id) RETURNING id").isEmpty
    }

    private static func endpoint(_ row: PostgresRow) throws -> WebhookEndpoint {
        let (id, url, secret, created) = try row.decode((Int64, String, String, Double).self)
        return WebhookEndpoint(id: id, url: url, secret: secret, createdAt: Date(timeIntervalSince1970: created))
    }
}
