import FeedCore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func addComment(username: String, text: String, owner: String?) async throws(RollError) -> Int64 {
        let now = (clock?.now() ?? Date()).timeIntervalSince1970
        let rows = try await rows("INSERT INTO comment(username, text, created_at, owner) VALUES (\(username), \(text), \(now), \(owner)) RETURNING id")
        return try await decoded { try rows.first?.decode(Int64.self) ?? 0 }
    }

    public func storedComments(after: Int64, limit: Int?) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        let limit = Int64(limit ?? Int.max)
        return try await comments(try await rows("SELECT id, username, text FROM comment WHERE id > \(after) ORDER BY id LIMIT \(limit)"))
    }

    public func storedComments(before: Int64?, limit: Int) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        let before = before ?? Int64.max, limit = Int64(limit)
        return try await comments(try await rows("SELECT id, username, text FROM comment WHERE id < \(before) ORDER BY id DESC LIMIT \(limit)"))
    }

    /// `rows` (id, username, text) as stored comments.
    private func comments(_ rows: [PostgresRow]) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await decoded {
            try rows.map { row in
                let (id, username, text) = try row.decode((Int64, String, String).self)
                return (number: id, username: username, text: text)
            }
        }
    }
}
