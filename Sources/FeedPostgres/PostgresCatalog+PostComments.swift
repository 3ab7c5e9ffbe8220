import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func addComment(postID: Int64, viewer: Viewer, text: String, parent: Int64?) async throws(SocialError) -> PostComment {
        try PostComment.validate(text)
        return try await social { db in
            let name = try viewer.actingUser("commenting")
            let post = try await Self.visiblePost(db, id: postID, viewer: viewer)
            if post.hidden { throw SocialError.closedToComments(post: postID, why: "a moderator hid it") }
            if post.visibility == .private { throw SocialError.closedToComments(post: postID, why: "it is private") }
            if let parent {
                let found = try await Self.comment(db, id: parent, viewer: viewer)
                if found.postID != postID { throw SocialError.parentOnOtherPost(parent: parent, post: postID) }
                if found.parentID != nil { throw SocialError.replyToReply(parent) }
            }
            try await self.ensureUsers(db, name)
            guard let row = try await db.row("""
                INSERT INTO post_comment(post_id, parent_id, author, text, created_at) VALUES (\(postID), \(parent), \(name), \(text), \(self.nowValue))
                RETURNING id, created_at
                """) else { throw SocialError.store(.database(path: self.location.description, reason: "the new comment has no id")) }
            let (id, created) = try row.decode((Int64, Double).self)
            // The post's row before the parent's: the order deletions take them in too.
            try await db.execute("UPDATE post SET comments = comments + 1 WHERE id = \(postID)")
            if let parent { try await db.execute("UPDATE post_comment SET replies = replies + 1 WHERE id = \(parent)") }
            return PostComment(id: id, postID: postID, parentID: parent, author: name, text: text, createdAt: Date(timeIntervalSince1970: created))
        }
    }

    public func comment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment {
        try await social { db in try await Self.comment(db, id: id, viewer: viewer) }
    }

    /// Which comments (aliased `c`) `viewer` sees: not hidden (but their own), neither author
    /// blocking the other.
    static func commentVisible(_ viewer: Viewer) -> SocialQuery {
        if viewer.isAdmin { return "TRUE" }
        guard let name = viewer.name else { return "NOT c.hidden" }
        return """
            (c.author = \(name) OR (NOT c.hidden
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = \(name) AND b.blocked = c.author)
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = c.author AND b.blocked = \(name))))
            """
    }

    static let commentColumns: SocialQuery = "SELECT c.id, c.post_id, c.parent_id, c.author, c.text, c.created_at, c.replies, c.hidden FROM post_comment c"

    static func comment(_ row: PostgresRow) throws -> PostComment {
        let (id, post, parent, author, text, created, replies, hidden) = try row.decode((Int64, Int64, Int64?, String, String, Double, Int64, Bool).self)
        return PostComment(id: id, postID: post, parentID: parent, author: author, text: text,
                           createdAt: Date(timeIntervalSince1970: created), replies: replies, hidden: hidden)
    }

    /// The comment `id`, if `viewer` sees it and its post.
    static func comment(_ db: SocialConnection, id: Int64, viewer: Viewer) async throws -> PostComment {
        guard let row = try await db.row("""
            \(commentColumns) JOIN post p ON p.id = c.post_id
            WHERE c.id = \(id) AND \(commentVisible(viewer)) AND \(visible(viewer))
            """) else { throw SocialError.unknownComment(id) }
        return try comment(row)
    }

    public func comments(postID: Int64, parent: Int64?, viewer: Viewer, before: Int64?, limit: Int) async throws(SocialError) -> [PostComment] {
        try await social { db in
            _ = try await Self.visiblePost(db, id: postID, viewer: viewer)
            let thread: SocialQuery = parent.map { "c.parent_id = \($0)" } ?? "c.parent_id IS NULL"
            return try await db.rows("""
                \(Self.commentColumns)
                WHERE c.post_id = \(postID) AND \(thread) AND c.id < \(before ?? Int64.max) AND \(Self.commentVisible(viewer))
                ORDER BY c.id DESC LIMIT \(Int64(limit))
                """).map(Self.comment)
        }
    }

    public func deleteComment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment {
        try await social { db in
            let found = try await Self.comment(db, id: id, viewer: viewer)
            let post = try await Self.visiblePost(db, id: found.postID, viewer: .admin, lock: true)
            guard viewer.isAdmin || viewer.name == found.author || viewer.name == post.author else { throw SocialError.notCommentAuthor(id) }
            try await db.execute("DELETE FROM report WHERE comment_id = \(id) OR comment_id IN (SELECT id FROM post_comment WHERE parent_id = \(id))")
            let removed = try await db.execute("DELETE FROM post_comment WHERE id = \(id) OR parent_id = \(id) RETURNING id")
            try await db.execute("UPDATE post SET comments = comments - \(Int64(removed)) WHERE id = \(found.postID)")
            if let parent = found.parentID { try await db.execute("UPDATE post_comment SET replies = replies - 1 WHERE id = \(parent)") }
            return found
        }
    }
}
