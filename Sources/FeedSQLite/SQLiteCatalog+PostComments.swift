import FeedCore
import FeedSocial
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func addComment(postID: Int64, viewer: Viewer, text: String, parent: Int64?) async throws(SocialError) -> PostComment {
        try PostComment.validate(text)
        let now = nowSeconds
        return try await socialWrite { db in
            let name = try viewer.actingUser("commenting")
            let post = try Self.visiblePost(db, id: postID, viewer: viewer)
            if post.hidden { throw SocialError.closedToComments(post: postID, why: "a moderator hid it") }
            if post.visibility == .private { throw SocialError.closedToComments(post: postID, why: "it is private") }
            if let parent {
                let found = try Self.comment(db, id: parent, viewer: viewer)
                if found.postID != postID { throw SocialError.parentOnOtherPost(parent: parent, post: postID) }
                if found.parentID != nil { throw SocialError.replyToReply(parent) }
            }
            try Self.ensureUser(db, name, now: now)
            try db.execute(literal: """
                INSERT INTO post_comment(post_id, parent_id, author, text, created_at) VALUES (\(postID), \(parent), \(name), \(text), \(now))
                """)
            let id = db.lastInsertedRowID
            try db.execute(literal: "UPDATE post SET comments = comments + 1 WHERE id = \(postID)")
            if let parent { try db.execute(literal: "UPDATE post_comment SET replies = replies + 1 WHERE id = \(parent)") }
            return PostComment(id: id, postID: postID, parentID: parent, author: name, text: text, createdAt: Date(timeIntervalSince1970: now))
        }
    }

    public func comment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment {
        try await socialRead { db in try Self.comment(db, id: id, viewer: viewer) }
    }

    /// Whom of a comment's authors `viewer` sees (the comment aliased `c`): not hidden (but
    /// their own), neither blocking the other.
    static func commentVisible(_ viewer: Viewer) -> SQL {
        if viewer.isAdmin { return "1" }
        guard let name = viewer.name else { return "c.hidden = 0" }
        return """
            (c.author = \(name) OR (c.hidden = 0
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = \(name) AND b.blocked = c.author)
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = c.author AND b.blocked = \(name))))
            """
    }

    static let commentColumns: SQL = "SELECT c.id, c.post_id, c.parent_id, c.author, c.text, c.created_at, c.replies, c.hidden FROM post_comment c"

    static func comment(_ row: Row) -> PostComment {
        PostComment(id: row[0], postID: row[1], parentID: row[2], author: row[3], text: row[4],
                    createdAt: Date(timeIntervalSince1970: row[5]), replies: row[6], hidden: row[7])
    }

    /// The comment `id`, if `viewer` sees it and its post.
    static func comment(_ db: Database, id: Int64, viewer: Viewer) throws -> PostComment {
        guard let row = try row(db, """
            \(literal: commentColumns) JOIN post p ON p.id = c.post_id
            WHERE c.id = \(id) AND \(literal: commentVisible(viewer)) AND \(literal: visible(viewer))
            """) else { throw SocialError.unknownComment(id) }
        return comment(row)
    }

    public func comments(postID: Int64, parent: Int64?, viewer: Viewer, before: Int64?, limit: Int) async throws(SocialError) -> [PostComment] {
        try await socialRead { db in
            _ = try Self.visiblePost(db, id: postID, viewer: viewer)
            let thread: SQL = parent.map { "c.parent_id = \($0)" } ?? "c.parent_id IS NULL"
            return try Self.rows(db, """
                \(literal: Self.commentColumns)
                WHERE c.post_id = \(postID) AND \(literal: thread) AND c.id < \(before ?? Int64.max) AND \(literal: Self.commentVisible(viewer))
                ORDER BY c.id DESC LIMIT \(limit)
                """).map(Self.comment)
        }
    }

    public func deleteComment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment {
        try await socialWrite { db in
            let found = try Self.comment(db, id: id, viewer: viewer)
            let post = try Self.visiblePost(db, id: found.postID, viewer: .admin)
            guard viewer.isAdmin || viewer.name == found.author || viewer.name == post.author else { throw SocialError.notCommentAuthor(id) }
            try db.execute(literal: "DELETE FROM report WHERE comment_id = \(id) OR comment_id IN (SELECT id FROM post_comment WHERE parent_id = \(id))")
            try db.execute(literal: "DELETE FROM post_comment WHERE id = \(id) OR parent_id = \(id)")
            try db.execute(literal: "UPDATE post SET comments = comments - \(db.changesCount) WHERE id = \(found.postID)")
            if let parent = found.parentID { try db.execute(literal: "UPDATE post_comment SET replies = replies - 1 WHERE id = \(parent)") }
            return found
        }
    }
}
