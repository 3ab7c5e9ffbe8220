import FeedCore
import FeedRecs
import FeedSocial
import Foundation
internal import GRDB

/// The posts For You picks from, on SQLite: their facts (author, time, plays, likes, hashtags)
/// by the lists the ranking draws on, and the chosen ones as the viewer may see them.
extension SQLiteCatalog {
    /// `SELECT` of a post's facts (aliased `p`).
    static let factColumns: SQL = """
        SELECT p.id, p.author, p.created_at, p.views, p.likes, (SELECT group_concat(t.tag, ' ') FROM post_tag t WHERE t.post_id = p.id) FROM post p
        """

    static func fact(_ row: Row) -> PostFact {
        let tags: String? = row[5]
        return PostFact(id: row[0], author: row[1], createdAt: row[2], views: row[3], likes: row[4],
                        hashtags: tags.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    func facts(_ sql: SQL) async throws(RecsError) -> [PostFact] {
        try await recsRead { db in try SQLRequest<Row>(literal: sql).fetchAll(db).map(Self.fact) }
    }

    public func postFacts() async throws(RecsError) -> [PostFact] {
        try await facts("\(literal: Self.factColumns) ORDER BY p.id")
    }

    public func newestPosts(limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts("\(literal: Self.factColumns) ORDER BY p.id DESC LIMIT \(limit)")
    }

    public func freshPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts("\(literal: Self.factColumns) WHERE p.created_at >= \(since) ORDER BY p.created_at DESC, p.id DESC LIMIT \(limit)")
    }

    public func popularPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts("\(literal: Self.factColumns) WHERE p.created_at >= \(since) ORDER BY p.views DESC, p.likes DESC, p.id DESC LIMIT \(limit)")
    }

    public func followedPosts(of user: String, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts("""
            \(literal: Self.factColumns) JOIN (SELECT p.id FROM post p JOIN follow f ON f.followee = p.author AND f.follower = \(user)
                                               ORDER BY p.id DESC LIMIT \(limit)) page ON page.id = p.id
            ORDER BY p.id DESC
            """)
    }

    public func visiblePosts(ids: [Int64], viewer: Viewer) async throws(RecsError) -> [SocialPost] {
        guard !ids.isEmpty else { return [] }
        let sql: SQL = "\(literal: Self.postColumns(viewer)) WHERE p.id IN \(ids) AND \(literal: Self.visible(viewer))"
        return try await recsRead { db in try SQLRequest<Row>(literal: sql).fetchAll(db).map(Self.post) }
    }

    public func saveModel(_ data: [UInt8], info: ModelInfo) async throws(RecsError) -> ModelInfo {
        try await recsWrite { db in
            try db.execute(literal: """
                INSERT INTO recs_model(trained_at, events, viewers, videos, seconds, bytes, data)
                VALUES (\(info.trainedAt), \(info.events), \(info.viewers), \(info.videos), \(info.seconds), \(info.bytes), \(Data(data)))
                """)
            var saved = info
            saved.version = db.lastInsertedRowID
            // The newest three stay: a server still reading the one before finds it.
            try db.execute(literal: "DELETE FROM recs_model WHERE version <= \(saved.version - 3)")
            return saved
        }
    }

    public func latestModel() async throws(RecsError) -> ModelInfo? {
        try await recsRead { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT version, trained_at, events, viewers, videos, seconds, bytes FROM recs_model ORDER BY version DESC LIMIT 1
                """)).map { row in
                ModelInfo(version: row[0], trainedAt: row[1], events: row[2], viewers: row[3], videos: row[4], seconds: row[5], bytes: row[6])
            }
        }
    }

    public func modelData(version: Int64) async throws(RecsError) -> [UInt8]? {
        try await recsRead { db in try Data.fetchOne(db, sql: "SELECT data FROM recs_model WHERE version = ?", arguments: [version]).map { Array($0) } }
    }
}
