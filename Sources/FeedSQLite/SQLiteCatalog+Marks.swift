import FeedCore
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func setMark(_ mark: VideoMark, _ on: Bool, videoID: String, feed: String, owner: String) async throws(RollError) -> Bool {
        let column = mark.column
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            if on {
                // Already on, here or unfiled: nothing changes.
                let marked = try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM video_mark WHERE owner = ? AND feed IN (?, '') AND video_id = ? AND \(column) IS NOT NULL)
                    """, arguments: [owner, feed, videoID]) ?? false
                if marked { return false }
                try db.execute(sql: "INSERT OR IGNORE INTO video_mark(owner, feed, video_id) VALUES (?, ?, ?)", arguments: [owner, feed, videoID])
                try db.execute(sql: "UPDATE video_mark SET \(column) = ? WHERE owner = ? AND feed = ? AND video_id = ?",
                               arguments: [now, owner, feed, videoID])
                return true
            }
            try db.execute(sql: """
                UPDATE video_mark SET \(column) = NULL WHERE owner = ? AND feed IN (?, '') AND video_id = ? AND \(column) IS NOT NULL
                """, arguments: [owner, feed, videoID])
            let changed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM video_mark WHERE owner = ? AND liked_at IS NULL AND bookmarked_at IS NULL", arguments: [owner])
            return changed
        }
    }

    public func marks(feed: String, owner: String) async throws(RollError) -> [String: Set<VideoMark>] {
        try await read { db in
            var result: [String: Set<VideoMark>] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT video_id, liked_at, bookmarked_at FROM video_mark WHERE owner = ? AND feed IN (?, '')",
                                           arguments: [owner, feed])
            while let row = try rows.next() {
                var set: Set<VideoMark> = []
                if row[1] as Double? != nil { set.insert(.like) }
                if row[2] as Double? != nil { set.insert(.bookmark) }
                result[row[0], default: []].formUnion(set)
            }
            return result
        }
    }

    public func videoIDs(marked mark: VideoMark, feed: String, owner: String) async throws(RollError) -> [String] {
        let column = mark.column
        return try await read { db in
            try String.fetchAll(db, sql: """
                SELECT video_id FROM video_mark WHERE owner = ? AND feed IN (?, '') AND \(column) IS NOT NULL
                GROUP BY video_id ORDER BY MAX(\(column)) DESC, video_id
                """, arguments: [owner, feed])
        }
    }
}

extension VideoMark {
    /// The `video_mark` column holding when this mark was set.
    fileprivate var column: String {
        switch self {
        case .like: "liked_at"
        case .bookmark: "bookmarked_at"
        }
    }
}
