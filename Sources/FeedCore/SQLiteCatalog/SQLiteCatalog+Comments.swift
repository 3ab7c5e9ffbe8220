import Foundation
internal import GRDB

extension SQLiteCatalog: CommentStore {
    public func addComment(username: String, text: String) async throws(RollError) -> Int64 {
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "INSERT INTO comment(username, text, created_at) VALUES (?, ?, ?)", arguments: [username, text, now])
            return db.lastInsertedRowID
        }
    }

    public func storedComments() async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, username, text FROM comment ORDER BY id").map { row -> [String] in
                [String(row[0] as Int64), row[1], row[2]]
            }
        }
        return rows.map { (number: Int64($0[0]) ?? 0, username: $0[1], text: $0[2]) }
    }
}
