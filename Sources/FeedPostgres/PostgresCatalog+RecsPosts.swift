import FeedCore
import FeedRecs
import FeedSocial
import Foundation
import PostgresNIO

/// The posts For You picks from, on PostgreSQL: their facts (author, time, plays, likes,
/// hashtags) by the lists the ranking draws on, the chosen ones as the viewer may see them, and
/// the trained models.
extension PostgresCatalog {
    /// `SELECT` of a post's facts (aliased `p`).
    static let factColumns: SocialQuery = """
        SELECT p.id, p.author, p.created_at, p.views, p.likes, (SELECT string_agg(t.tag, ' ') FROM post_tag t WHERE t.post_id = p.id) FROM post p
        """

    static func fact(_ row: PostgresRow) throws -> PostFact {
        let (id, author, created, views, likes, tags) = try row.decode((Int64, String, Double, Int64, Int64, String?).self)
        return PostFact(id: id, author: author, createdAt: created, views: views, likes: likes,
                        hashtags: tags.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    func facts(_ query: SocialQuery) async throws(RecsError) -> [PostFact] {
        try await recs { db in try await db.rows(query).map(Self.fact) }
    }

    public func postFacts() async throws(RecsError) -> [PostFact] {
        try await facts(Self.factColumns + " ORDER BY p.id")
    }

    public func newestPosts(limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts(Self.factColumns + " ORDER BY p.id DESC LIMIT \(limit)")
    }

    public func freshPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts(Self.factColumns + " WHERE p.created_at >= \(since) ORDER BY p.created_at DESC, p.id DESC LIMIT \(limit)")
    }

    public func popularPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts(Self.factColumns + " WHERE p.created_at >= \(since) ORDER BY p.views DESC, p.likes DESC, p.id DESC LIMIT \(limit)")
    }

    public func followedPosts(of user: String, limit: Int) async throws(RecsError) -> [PostFact] {
        try await facts(Self.factColumns + """
             JOIN (SELECT p.id FROM post p JOIN follow f ON f.followee = p.author AND f.follower = \(user)
                   ORDER BY p.id DESC LIMIT \(limit)) page ON page.id = p.id
            ORDER BY p.id DESC
            """)
    }

    public func visiblePosts(ids: [Int64], viewer: Viewer) async throws(RecsError) -> [SocialPost] {
        guard !ids.isEmpty else { return [] }
        return try await recs { db in
            try await db.rows("\(Self.postColumns(viewer)) WHERE p.id = ANY(\(ids)::int8[]) AND \(Self.visible(viewer))").map(Self.post)
        }
    }

    public func saveModel(_ data: [UInt8], info: ModelInfo) async throws(RecsError) -> ModelInfo {
        let bytes = ByteBuffer(bytes: data)
        return try await recs { db in
            guard let row = try await db.row("""
                INSERT INTO recs_model(trained_at, events, viewers, videos, seconds, bytes, data)
                VALUES (\(info.trainedAt), \(Int64(info.events)), \(Int64(info.viewers)), \(Int64(info.videos)), \(info.seconds), \(Int64(info.bytes)), \(bytes))
                RETURNING version
                """) else { throw RecsError.store(.database(path: self.location.description, reason: "the new model has no version")) }
            var saved = info
            saved.version = try row.decode(Int64.self)
            // The newest three stay: a server still reading the one before finds it.
            try await db.execute("DELETE FROM recs_model WHERE version <= \(saved.version - 3) RETURNING version")
            return saved
        }
    }

    public func latestModel() async throws(RecsError) -> ModelInfo? {
        try await recs { db in
            try await db.row("SELECT version, trained_at, events, viewers, videos, seconds, bytes FROM recs_model ORDER BY version DESC LIMIT 1").map { row in
                let (version, trained, events, viewers, videos, seconds, bytes) = try row.decode((Int64, Double, Int64, Int64, Int64, Double, Int64).self)
                return ModelInfo(version: version, trainedAt: trained, events: Int(events), viewers: Int(viewers), videos: Int(videos),
                                 seconds: seconds, bytes: Int(bytes))
            }
        }
    }

    public func modelData(version: Int64) async throws(RecsError) -> [UInt8]? {
        try await recs { db in
            try await db.row("SELECT data FROM recs_model WHERE version = \(version)").map { row in
                var buffer = try row.decode(ByteBuffer.self)
                return buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        }
    }
}
