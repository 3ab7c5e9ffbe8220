import FeedCore
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func addComment(username: String, text: String, owner: String?) async throws(RollError) -> Int64 {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "INSERT INTO comment(username, text, created_at, owner) VALUES (?, ?, ?, ?)", arguments: [username, text, now, owner])
            return db.lastInsertedRowID
        }
    }

    public func storedComments(after: Int64, limit: Int?) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await comments(sql: "SELECT id, username, text FROM comment WHERE id > ? ORDER BY id LIMIT ?", [after, Int64(limit ?? -1)])
    }

    public func storedComments(before: Int64?, limit: Int) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await comments(sql: "SELECT id, username, text FROM comment WHERE id < ? ORDER BY id DESC LIMIT ?", [before ?? Int64.max, Int64(limit)])
    }

    /// The rows of `sql` (id, username, text) with `arguments`.
    private func comments(sql: String, _ arguments: [Int64]) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row -> (Int64, String, String) in
                (row[0], row[1], row[2])
            }
        }
        return rows.map { (number: $0.0, username: $0.1, text: $0.2) }
    }
}
