import FeedCore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func setMark(_ mark: VideoMark, _ on: Bool, videoID: String, feed: String, owner: String) async throws(RollError) -> Bool {
        let column = Self.column(mark)
        let now = (clock?.now() ?? Date()).timeIntervalSince1970
        if on {
            // Nothing changes when it is on already, here or unfiled ('').
            return try await !rows("""
                INSERT INTO video_mark(owner, feed, video_id, \(unescaped: column))
                SELECT \(owner), \(feed), \(videoID), \(now)
                WHERE NOT EXISTS (SELECT 1 FROM video_mark WHERE owner = \(owner) AND feed = '' AND video_id = \(videoID) AND \(unescaped: column) IS NOT NULL)
                ON CONFLICT (owner, feed, video_id) DO UPDATE SET \(unescaped: column) = EXCLUDED.\(unescaped: column)
                WHERE video_mark.\(unescaped: column) IS NULL RETURNING video_id
                """).isEmpty
        }
        return try await transaction { connection, logger in
            var changed = false
            for try await _ in try await connection.query("""
                UPDATE video_mark SET \(unescaped: column) = NULL
                WHERE owner = \(owner) AND feed IN (\(feed), '') AND video_id = \(videoID) AND \(unescaped: column) IS NOT NULL
                RETURNING video_id
                """, logger: logger) { changed = true }
            try await connection.query("""
                DELETE FROM video_mark WHERE owner = \(owner) AND feed IN (\(feed), '') AND video_id = \(videoID) AND liked_at IS NULL AND bookmarked_at IS NULL
                """, logger: logger)
            return changed
        }
    }

    public func marks(feed: String, owner: String) async throws(RollError) -> [String: Set<VideoMark>] {
        let rows = try await rows("SELECT video_id, liked_at, bookmarked_at FROM video_mark WHERE owner = \(owner) AND feed IN (\(feed), '')")
        return try await decoded {
            var result: [String: Set<VideoMark>] = [:]
            for row in rows {
                let (id, liked, bookmarked) = try row.decode((String, Double?, Double?).self)
                var set: Set<VideoMark> = []
                if liked != nil { set.insert(.like) }
                if bookmarked != nil { set.insert(.bookmark) }
                result[id, default: []].formUnion(set)
            }
            return result
        }
    }

    public func videoIDs(marked mark: VideoMark, feed: String, owner: String) async throws(RollError) -> [String] {
        let column = Self.column(mark)
        let rows = try await rows("""
            SELECT video_id FROM video_mark WHERE owner = \(owner) AND feed IN (\(feed), '') AND \(unescaped: column) IS NOT NULL
            GROUP BY video_id ORDER BY MAX(\(unescaped: column)) DESC, video_id
            """)
        return try await decoded { try rows.map { try $0.decode(String.self) } }
    }

    /// The `video_mark` column holding when `mark` was set.
    private static func column(_ mark: VideoMark) -> String {
        switch mark {
        case .like: "liked_at"
        case .bookmark: "bookmarked_at"
        }
    }
}
