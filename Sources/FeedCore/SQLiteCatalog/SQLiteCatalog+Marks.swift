import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func setMark(_ mark: VideoMark, _ on: Bool, videoID: String) async throws(RollError) -> Bool {
        let column = mark.column
        let now = clock.now().timeIntervalSince1970
        return try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO video_mark(video_id) VALUES (?)", arguments: [videoID])
            if on {
                try db.execute(sql: "UPDATE video_mark SET \(column) = ? WHERE video_id = ? AND \(column) IS NULL",
                               arguments: [now, videoID])
            } else {
                try db.execute(sql: "UPDATE video_mark SET \(column) = NULL WHERE video_id = ? AND \(column) IS NOT NULL",
                               arguments: [videoID])
            }
            let changed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM video_mark WHERE liked_at IS NULL AND bookmarked_at IS NULL")
            return changed
        }
    }

    public func marks() async throws(RollError) -> [String: Set<VideoMark>] {
        try await read { db in
            var result: [String: Set<VideoMark>] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT video_id, liked_at, bookmarked_at FROM video_mark")
            while let row = try rows.next() {
                var set: Set<VideoMark> = []
                if row[1] as Double? != nil { set.insert(.like) }
                if row[2] as Double? != nil { set.insert(.bookmark) }
                result[row[0]] = set
            }
            return result
        }
    }

    public func videoIDs(marked mark: VideoMark) async throws(RollError) -> [String] {
        let column = mark.column
        return try await read { db in
            try String.fetchAll(db, sql: "SELECT video_id FROM video_mark WHERE \(column) IS NOT NULL ORDER BY \(column) DESC, video_id")
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
