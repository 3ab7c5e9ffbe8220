import FeedCore
import FeedSocial
import Foundation
internal import GRDB

/// What every social query of the SQLite catalog shares: its transactions (a ``SocialError``
/// thrown inside one rolls it back and comes out as it is), the ``VisibilityRule`` as SQL, and
/// a post's columns.
extension SQLiteCatalog {
    /// Runs a write transaction; a SocialError thrown inside rolls it back and is rethrown.
    func socialWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SocialError) -> T {
        try await refusing(SocialError.store, write: body)
    }

    /// Runs a read.
    func socialRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SocialError) -> T {
        try await refusing(SocialError.store, read: body)
    }

    /// Runs a write transaction; a `Refusal` thrown inside rolls it back and comes out as it is,
    /// any other failure as `wrap` makes it (the social and For You errors' `store` case).
    func refusing<T: Sendable, Refusal: Error>(_ wrap: (RollError) -> Refusal,
                                               write body: @escaping @Sendable (Database) throws -> T) async throws(Refusal) -> T {
        guard let writer else { throw wrap(.database(path: path, reason: "opened read-only")) }
        do { return try await writer.write(body) } catch let error as Refusal { throw error } catch {
            throw wrap(Self.mapped(error, path: path))
        }
    }

    /// Runs a read, as ``refusing(_:write:)`` runs a write.
    func refusing<T: Sendable, Refusal: Error>(_ wrap: (RollError) -> Refusal,
                                               read body: @escaping @Sendable (Database) throws -> T) async throws(Refusal) -> T {
        do { return try await reader.read(body) } catch let error as Refusal { throw error } catch {
            throw wrap(Self.mapped(error, path: path))
        }
    }

    /// The first value of `sql`'s first row.
    static func value<T: DatabaseValueConvertible>(_ db: Database, _ sql: SQL, as type: T.Type = T.self) throws -> T? {
        try SQLRequest<T>(literal: sql).fetchOne(db)
    }

    /// The first row of `sql`.
    static func row(_ db: Database, _ sql: SQL) throws -> Row? {
        try SQLRequest<Row>(literal: sql).fetchOne(db)
    }

    /// Every row of `sql`.
    static func rows(_ db: Database, _ sql: SQL) throws -> [Row] {
        try SQLRequest<Row>(literal: sql).fetchAll(db)
    }

    /// Seconds since 1970 on the catalog's clock.
    var nowSeconds: Double { clock.now().timeIntervalSince1970 }

    /// ``VisibilityRule`` for `viewer` over the post aliased `p`.
    static func visible(_ viewer: Viewer) -> SQL {
        if viewer.isAdmin { return "1" }
        guard let name = viewer.name else { return "(p.visibility = 'public' AND p.hidden = 0)" }
        return """
            (p.author = \(name) OR (p.hidden = 0
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = p.author AND b.blocked = \(name))
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = \(name) AND b.blocked = p.author)
              AND (p.visibility = 'public' OR (p.visibility = 'followers'
                   AND EXISTS (SELECT 1 FROM follow f WHERE f.follower = \(name) AND f.followee = p.author)))))
            """
    }

    /// `SELECT` of a post's columns (aliased `p`), `liked` being the viewer's.
    static func postColumns(_ viewer: Viewer) -> SQL {
        let liked: SQL = viewer.name.map { "EXISTS (SELECT 1 FROM post_like l WHERE l.post_id = p.id AND l.liker = \($0))" } ?? "0"
        let followed: SQL = viewer.name.map { "EXISTS (SELECT 1 FROM follow fa WHERE fa.follower = \($0) AND fa.followee = p.author)" } ?? "0"
        return "SELECT p.id, p.recording_id, p.author, p.description, p.visibility, p.created_at, p.likes, p.comments, p.shares, p.hidden, \(literal: liked), \(literal: followed), r.file_name, r.sha256, r.duration, r.width, r.height, p.views FROM post p JOIN recording r ON r.id = p.recording_id"
    }

    /// A row of ``postColumns(_:)`` as a post.
    static func post(_ row: Row) -> SocialPost {
        SocialPost(id: row[0], recordingID: row[1], author: row[2], text: PostText(stored: row[3]),
                   visibility: Visibility(rawValue: row[4]) ?? .private, createdAt: Date(timeIntervalSince1970: row[5]),
                   likes: row[6], comments: row[7], shares: row[8], views: row[17], hidden: row[9], liked: row[10], followed: row[11],
                   media: PostMedia(fileName: row[12], sha256: row[13], duration: row[14], width: row[15], height: row[16]))
    }

    /// The post `id` as `viewer` sees it, inside a transaction.
    static func visiblePost(_ db: Database, id: Int64, viewer: Viewer) throws -> SocialPost {
        let sql: SQL = "\(literal: postColumns(viewer)) WHERE p.id = \(id) AND \(literal: visible(viewer))"
        guard let row = try self.row(db, sql) else { throw SocialError.unknownPost(id) }
        return post(row)
    }

    /// Removes the post `post` and what hangs on it (likes, tags, comments, reports), and takes
    /// it out of its author's counts.
    static func removePost(_ db: Database, _ post: SocialPost) throws {
        let id = post.id
        try db.execute(literal: "UPDATE app_user SET videos = videos - 1, likes = likes - \(post.likes) WHERE name = \(post.author)")
        try db.execute(literal: "DELETE FROM post_like WHERE post_id = \(id)")
        try db.execute(literal: "DELETE FROM post_tag WHERE post_id = \(id)")
        try db.execute(literal: "DELETE FROM report WHERE post_id = \(id) OR comment_id IN (SELECT id FROM post_comment WHERE post_id = \(id))")
        try db.execute(literal: "DELETE FROM post_comment WHERE post_id = \(id)")
        try db.execute(literal: "DELETE FROM post WHERE id = \(id)")
    }

    /// Makes the user `name`'s row if it is not there yet.
    static func ensureUser(_ db: Database, _ name: String, now: Double) throws {
        try db.execute(literal: "INSERT INTO app_user(name, created_at) VALUES (\(name), \(now)) ON CONFLICT(name) DO NOTHING")
    }

    /// Whether either of `a` and `b` blocked the other.
    static func blocked(_ db: Database, _ a: String, _ b: String) throws -> Bool {
        try value(db, """
            SELECT EXISTS (SELECT 1 FROM user_block WHERE (blocker = \(a) AND blocked = \(b)) OR (blocker = \(b) AND blocked = \(a)))
            """, as: Bool.self) ?? false
    }
}
