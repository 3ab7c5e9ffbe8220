import FeedCore
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func addWebhook(url: String, secret: String) async throws(RollError) -> WebhookEndpoint {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: """
                INSERT INTO webhook(url, secret, created_at) VALUES (?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET secret = excluded.secret
                """, arguments: [url, secret, now])
            let row = try Row.fetchOne(db, sql: "SELECT id, url, secret, created_at FROM webhook WHERE url = ?", arguments: [url])!
            return Self.endpoint(row)
        }
    }

    public func webhooks() async throws(RollError) -> [WebhookEndpoint] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, url, secret, created_at FROM webhook ORDER BY id").map(Self.endpoint)
        }
    }

    @discardableResult
    public func removeWebhook(id: Int64) async throws(RollError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM webhook WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    private static func endpoint(_ row: Row) -> WebhookEndpoint {
        WebhookEndpoint(id: row[0], url: row[1], secret: row[2], createdAt: Date(timeIntervalSince1970: row[3]))
    }
}
