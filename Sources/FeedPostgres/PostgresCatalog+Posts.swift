import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog: SocialStore {
    public func publish(_ draft: PostDraft) async throws(SocialError) -> SocialPost {
        try await social { db in
            guard let row = try await db.row("SELECT owner FROM recording WHERE id = \(draft.recordingID) FOR UPDATE") else {
                throw SocialError.unknownRecording(draft.recordingID)
            }
            let owner = try row.decode(String?.self)
            if !draft.viewer.isAdmin, owner == nil || owner != draft.viewer.name { throw SocialError.unknownRecording(draft.recordingID) }
            guard let author = owner ?? draft.author else { throw SocialError.recordingHasNoOwner(draft.recordingID) }
            if let existing = try await db.row("SELECT id FROM post WHERE recording_id = \(draft.recordingID)") {
                throw SocialError.alreadyPublished(recording: draft.recordingID, post: try existing.decode(Int64.self))
            }
            try await self.ensureUsers(db, author)
            guard let inserted = try await db.row("""
                INSERT INTO post(recording_id, author, description, visibility, created_at)
                VALUES (\(draft.recordingID), \(author), \(draft.text.text), \(draft.visibility.rawValue), \(self.nowValue)) RETURNING id
                """) else { throw SocialError.store(.database(path: self.location.description, reason: "the new post has no id")) }
            let id = try inserted.decode(Int64.self)
            for tag in draft.text.hashtags { try await db.execute("INSERT INTO post_tag(tag, post_id) VALUES (\(tag), \(id)) ON CONFLICT DO NOTHING") }
            try await db.execute("UPDATE app_user SET videos = videos + 1 WHERE name = \(author)")
            return try await Self.visiblePost(db, id: id, viewer: .admin)
        }
    }

    public func post(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await social { db in try await Self.visiblePost(db, id: id, viewer: viewer) }
    }

    public func post(recording: Int64) async throws(SocialError) -> SocialPost? {
        try await social { db in
            try await db.row("\(Self.postColumns(.admin)) WHERE p.recording_id = \(recording)").map(Self.post)
        }
    }

    public func editPost(id: Int64, viewer: Viewer, text: PostText?, visibility: Visibility?) async throws(SocialError) -> SocialPost {
        try await social { db in
            let post = try await Self.visiblePost(db, id: id, viewer: viewer, lock: true)
            guard viewer.isAdmin || viewer.name == post.author else { throw SocialError.notAuthor(post: id) }
            if let text {
                try await db.execute("UPDATE post SET description = \(text.text) WHERE id = \(id)")
                try await db.execute("DELETE FROM post_tag WHERE post_id = \(id)")
                for tag in text.hashtags { try await db.execute("INSERT INTO post_tag(tag, post_id) VALUES (\(tag), \(id)) ON CONFLICT DO NOTHING") }
            }
            if let visibility { try await db.execute("UPDATE post SET visibility = \(visibility.rawValue) WHERE id = \(id)") }
            return try await Self.visiblePost(db, id: id, viewer: viewer)
        }
    }

    public func unpublish(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await social { db in
            // The post's row first, then its author's: the order every writer takes them in.
            let post = try await Self.visiblePost(db, id: id, viewer: viewer, lock: true)
            guard viewer.isAdmin || viewer.name == post.author else { throw SocialError.notAuthor(post: id) }
            try await Self.removePost(db, post)
            return post
        }
    }

    public func posts(_ query: PostQuery, viewer: Viewer) async throws(SocialError) -> [SocialPost] {
        let ids = try Self.postIDsSQL(query, viewer: viewer)
        let order = switch query.order {
        case .newest: "p.id DESC"
        case .oldest: "p.id ASC"
        case .mostLiked: "p.likes DESC, p.id DESC"
        case .leastLiked: "p.likes ASC, p.id ASC"
        }
        // The page's ids first, from the post rows alone; only those are joined to their
        // recordings and have the viewer's like and follow looked up (not every post of 200 authors).
        let page: SocialQuery = """
            \(Self.postColumns(viewer))
            JOIN (\(ids) ORDER BY \(raw: order) LIMIT \(Int64(query.limit)) OFFSET \(Int64(query.offset))) page ON page.id = p.id
            ORDER BY \(raw: order)
            """
        return try await social { db in try await db.rows(page).map(Self.post) }
    }

    public func visiblePostCount(_ query: PostQuery, viewer: Viewer, upTo limit: Int) async throws(SocialError) -> Int {
        let sql = try Self.postIDsSQL(query, viewer: viewer)
        return try await social { db in
            Int(try await db.row("SELECT count(*) FROM (\(sql) LIMIT \(Int64(limit))) AS page")?.decode(Int64.self) ?? 0)
        }
    }

    /// The ids of the posts of `query` that `viewer` may see (the post aliased `p`), unordered and unpaged.
    static func postIDsSQL(_ query: PostQuery, viewer: Viewer) throws(SocialError) -> SocialQuery {
        var sql: SocialQuery = "SELECT p.id FROM post p"
        switch query.scope {
        case .all: sql += " WHERE TRUE"
        case .following:
            let name = try viewer.actingUser("the following feed")
            sql += " JOIN follow fo ON fo.followee = p.author AND fo.follower = \(name) WHERE TRUE"
        case .author(let name): sql += " WHERE p.author = \(name)"
        }
        sql += " AND \(visible(viewer))"
        if let tag = query.tag { sql += " AND p.id IN (SELECT post_id FROM post_tag WHERE tag = \(tag))" }
        for word in query.words { sql += " AND strpos(lower(p.description || ' ' || p.author), \(word)) > 0" }
        if let before = query.before { sql += " AND p.id < \(before)" }
        return sql
    }

    public func setLike(_ on: Bool, postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await social { db in
            let name = try viewer.actingUser("liking")
            let post = try await Self.visiblePost(db, id: postID, viewer: viewer)
            try await self.ensureUsers(db, name)
            let changed = on
                ? try await db.execute("""
                    INSERT INTO post_like(post_id, liker, created_at) VALUES (\(postID), \(name), \(self.nowValue)) ON CONFLICT DO NOTHING RETURNING post_id
                    """)
                : try await db.execute("DELETE FROM post_like WHERE post_id = \(postID) AND liker = \(name) RETURNING post_id")
            if changed > 0 {
                let step: Int64 = on ? 1 : -1
                try await db.execute("UPDATE post SET likes = likes + \(step) WHERE id = \(postID)")
                try await db.execute("UPDATE app_user SET likes = likes + \(step) WHERE name = \(post.author)")
            }
            return try await Self.visiblePost(db, id: postID, viewer: viewer)
        }
    }

    public func share(postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await social { db in
            _ = try await Self.visiblePost(db, id: postID, viewer: viewer)
            try await db.execute("UPDATE post SET shares = shares + 1 WHERE id = \(postID)")
            return try await Self.visiblePost(db, id: postID, viewer: viewer)
        }
    }
}
