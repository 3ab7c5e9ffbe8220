import FeedCore
import FeedSocial
import Foundation
internal import GRDB

extension SQLiteCatalog: SocialStore {
    public func publish(_ draft: PostDraft) async throws(SocialError) -> SocialPost {
        let now = nowSeconds
        return try await socialWrite { db in
            guard let row = try Self.row(db, "SELECT owner FROM recording WHERE id = \(draft.recordingID)") else {
                throw SocialError.unknownRecording(draft.recordingID)
            }
            let owner: String? = row[0]
            if !draft.viewer.isAdmin, owner == nil || owner != draft.viewer.name { throw SocialError.unknownRecording(draft.recordingID) }
            guard let author = owner ?? draft.author else { throw SocialError.recordingHasNoOwner(draft.recordingID) }
            if let existing = try Self.value(db, "SELECT id FROM post WHERE recording_id = \(draft.recordingID)", as: Int64.self) {
                throw SocialError.alreadyPublished(recording: draft.recordingID, post: existing)
            }
            try Self.ensureUser(db, author, now: now)
            try db.execute(literal: """
                INSERT INTO post(recording_id, author, description, visibility, created_at)
                VALUES (\(draft.recordingID), \(author), \(draft.text.text), \(draft.visibility.rawValue), \(now))
                """)
            let id = db.lastInsertedRowID
            for tag in draft.text.hashtags { try db.execute(literal: "INSERT OR IGNORE INTO post_tag(tag, post_id) VALUES (\(tag), \(id))") }
            try db.execute(literal: "UPDATE app_user SET videos = videos + 1 WHERE name = \(author)")
            return try Self.visiblePost(db, id: id, viewer: .admin)
        }
    }

    public func post(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await socialRead { db in try Self.visiblePost(db, id: id, viewer: viewer) }
    }

    public func post(recording: Int64) async throws(SocialError) -> SocialPost? {
        try await socialRead { db in
            try Self.row(db, "\(literal: Self.postColumns(.admin)) WHERE p.recording_id = \(recording)").map(Self.post)
        }
    }

    public func editPost(id: Int64, viewer: Viewer, text: PostText?, visibility: Visibility?) async throws(SocialError) -> SocialPost {
        try await socialWrite { db in
            let post = try Self.visiblePost(db, id: id, viewer: viewer)
            guard viewer.isAdmin || viewer.name == post.author else { throw SocialError.notAuthor(post: id) }
            if let text {
                try db.execute(literal: "UPDATE post SET description = \(text.text) WHERE id = \(id)")
                try db.execute(literal: "DELETE FROM post_tag WHERE post_id = \(id)")
                for tag in text.hashtags { try db.execute(literal: "INSERT OR IGNORE INTO post_tag(tag, post_id) VALUES (\(tag), \(id))") }
            }
            if let visibility { try db.execute(literal: "UPDATE post SET visibility = \(visibility.rawValue) WHERE id = \(id)") }
            return try Self.visiblePost(db, id: id, viewer: viewer)
        }
    }

    public func unpublish(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await socialWrite { db in
            let post = try Self.visiblePost(db, id: id, viewer: viewer)
            guard viewer.isAdmin || viewer.name == post.author else { throw SocialError.notAuthor(post: id) }
            try Self.removePost(db, post)
            return post
        }
    }

    public func posts(_ query: PostQuery, viewer: Viewer) async throws(SocialError) -> [SocialPost] {
        let ids = try Self.postIDsSQL(query, viewer: viewer)
        let order: SQL = switch query.order {
        case .newest: "p.id DESC"
        case .oldest: "p.id ASC"
        case .mostLiked: "p.likes DESC, p.id DESC"
        case .leastLiked: "p.likes ASC, p.id ASC"
        }
        // The page's ids first, from the post rows alone; only those 20 are joined to their
        // recordings and have the viewer's like and follow looked up (not every post of 200 authors).
        let page: SQL = """
            \(literal: Self.postColumns(viewer))
            JOIN (\(literal: ids) ORDER BY \(literal: order) LIMIT \(query.limit) OFFSET \(query.offset)) page ON page.id = p.id
            ORDER BY \(literal: order)
            """
        return try await socialRead { db in try Self.rows(db, page).map(Self.post) }
    }

    public func visiblePostCount(_ query: PostQuery, viewer: Viewer, upTo limit: Int) async throws(SocialError) -> Int {
        let sql = try Self.postIDsSQL(query, viewer: viewer)
        return try await socialRead { db in
            try Self.value(db, "SELECT count(*) FROM (\(literal: sql) LIMIT \(limit))", as: Int.self) ?? 0
        }
    }

    /// The ids of the posts of `query` that `viewer` may see (the post aliased `p`), unordered and unpaged.
    static func postIDsSQL(_ query: PostQuery, viewer: Viewer) throws(SocialError) -> SQL {
        var sql: SQL = "SELECT p.id FROM post p"
        switch query.scope {
        case .all: sql += " WHERE 1"
        case .following:
            let name = try viewer.actingUser("the following feed")
            sql += " JOIN follow fo ON fo.followee = p.author AND fo.follower = \(name) WHERE 1"
        case .author(let name): sql += " WHERE p.author = \(name)"
        }
        sql += " AND \(literal: visible(viewer))"
        if let tag = query.tag { sql += " AND p.id IN (SELECT post_id FROM post_tag WHERE tag = \(tag))" }
        for word in query.words { sql += " AND instr(lower(p.description || ' ' || p.author), \(word)) > 0" }
        if let before = query.before { sql += " AND p.id < \(before)" }
        return sql
    }

    public func setLike(_ on: Bool, postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        let now = nowSeconds
        return try await socialWrite { db in
            let name = try viewer.actingUser("liking")
            let post = try Self.visiblePost(db, id: postID, viewer: viewer)
            try Self.ensureUser(db, name, now: now)
            if on {
                try db.execute(literal: "INSERT OR IGNORE INTO post_like(post_id, liker, created_at) VALUES (\(postID), \(name), \(now))")
            } else {
                try db.execute(literal: "DELETE FROM post_like WHERE post_id = \(postID) AND liker = \(name)")
            }
            if db.changesCount > 0 {
                let step = on ? 1 : -1
                try db.execute(literal: "UPDATE post SET likes = likes + \(step) WHERE id = \(postID)")
                try db.execute(literal: "UPDATE app_user SET likes = likes + \(step) WHERE name = \(post.author)")
            }
            return try Self.visiblePost(db, id: postID, viewer: viewer)
        }
    }

    public func share(postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        try await socialWrite { db in
            _ = try Self.visiblePost(db, id: postID, viewer: viewer)
            try db.execute(literal: "UPDATE post SET shares = shares + 1 WHERE id = \(postID)")
            return try Self.visiblePost(db, id: postID, viewer: viewer)
        }
    }
}
