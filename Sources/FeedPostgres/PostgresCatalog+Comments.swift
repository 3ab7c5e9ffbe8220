import FeedCore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func addComment(username: String, text: String) async throws(RollError) -> Int64 {
        let now = (clock?.now() ?? Date()).timeIntervalSince1970
        let rows = try await rows("INSERT INTO comment(username, text, created_at) VALUES (\(username), \(text), \(now)) RETURNING id")
        return try await decoded { try rows.first?.decode(Int64.self) ?? 0 }
    }

    public func storedComments() async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        let rows = try await rows("SELECT id, username, text FROM comment ORDER BY id")
        return try await decoded {
            try rows.map { row in
                let (id, username, text) = try row.decode((Int64, String, String).self)
                return (number: id, username: username, text: text)
            }
        }
    }
}
