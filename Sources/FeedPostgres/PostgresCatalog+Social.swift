import FeedCore
import FeedSocial
import Foundation
import Logging
import PostgresNIO

/// One connection inside a social transaction.
struct SocialConnection: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows of `query`.
    func rows(_ query: SocialQuery) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await connection.query(query.query, logger: logger) { rows.append(row) }
        return rows
    }

    /// The first row of `query`.
    func row(_ query: SocialQuery) async throws -> PostgresRow? { try await rows(query).first }

    /// Runs `query`; returns how many rows it returned (a `RETURNING` statement's changes).
    @discardableResult
    func execute(_ query: SocialQuery) async throws -> Int { try await rows(query).count }
}

/// What every social query of the PostgreSQL catalog shares: its transactions (a
/// ``SocialError`` thrown inside one rolls it back and comes out as it is), the
/// ``VisibilityRule`` as SQL, and a post's columns. The same statements as the SQLite
/// catalog's, with locks taken in one order (a post before its author's row, user rows by name)
/// so that concurrent writers never deadlock.
extension PostgresCatalog {
    /// Runs `body` in one transaction.
    func social<T: Sendable>(_ body: @escaping @Sendable (SocialConnection) async throws -> T) async throws(SocialError) -> T {
        try await refusing(SocialError.store, body)
    }

    /// Runs `body` in one transaction; a `Refusal` thrown inside rolls it back and comes out as
    /// it is, any other failure as `wrap` makes it (the social and For You errors' `store` case).
    func refusing<T: Sendable, Refusal: Error>(_ wrap: (RollError) -> Refusal,
                                               _ body: @escaping @Sendable (SocialConnection) async throws -> T) async throws(Refusal) -> T {
        let refusal = Locked<Refusal?>(nil)
        do {
            return try await transaction { connection, logger in
                do { return try await body(SocialConnection(connection: connection, logger: logger)) } catch let error as Refusal {
                    refusal.withLock { $0 = error }
                    throw error
                }
            }
        } catch {
            if let refused = refusal.withLock({ $0 }) { throw refused }
            throw wrap(error)
        }
    }

    /// Seconds since 1970: the catalog's clock when it has one, else the database's (in the statement).
    var nowValue: SocialQuery {
        if let clock { return "\(clock.now().timeIntervalSince1970)::float8" }
        return "extract(epoch from clock_timestamp())::float8"
    }

    /// ``VisibilityRule`` for `viewer` over the post aliased `p`.
    static func visible(_ viewer: Viewer) -> SocialQuery {
        if viewer.isAdmin { return "TRUE" }
        guard let name = viewer.name else { return "(p.visibility = 'public' AND NOT p.hidden)" }
        return """
            (p.author = \(name) OR (NOT p.hidden
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = p.author AND b.blocked = \(name))
              AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = \(name) AND b.blocked = p.author)
              AND (p.visibility = 'public' OR (p.visibility = 'followers'
                   AND EXISTS (SELECT 1 FROM follow f WHERE f.follower = \(name) AND f.followee = p.author)))))
            """
    }

    /// `SELECT` of a post's columns (aliased `p`), `liked` being the viewer's.
    static func postColumns(_ viewer: Viewer) -> SocialQuery {
        let liked: SocialQuery = viewer.name.map { "EXISTS (SELECT 1 FROM post_like l WHERE l.post_id = p.id AND l.liker = \($0))" } ?? "FALSE"
        let followed: SocialQuery = viewer.name.map { "EXISTS (SELECT 1 FROM follow fa WHERE fa.follower = \($0) AND fa.followee = p.author)" } ?? "FALSE"
        return "SELECT p.id, p.recording_id, p.author, p.description, p.visibility, p.created_at, p.likes, p.comments, p.shares, p.hidden, \(liked), \(followed), r.file_name, r.sha256, r.duration, r.width, r.height, p.views FROM post p JOIN recording r ON r.id = p.recording_id"
    }

    /// A row of ``postColumns(_:)`` as a post.
    static func post(_ row: PostgresRow) throws -> SocialPost {
        let c = row.makeRandomAccess()
        let media = PostMedia(fileName: try c[12].decode(String.self), sha256: try c[13].decode(String.self), duration: try c[14].decode(Double.self),
                              width: Int(try c[15].decode(Int32.self)), height: Int(try c[16].decode(Int32.self)))
        return SocialPost(id: try c[0].decode(Int64.self), recordingID: try c[1].decode(Int64.self), author: try c[2].decode(String.self),
                          text: PostText(stored: try c[3].decode(String.self)),
                          visibility: Visibility(rawValue: try c[4].decode(String.self)) ?? .private,
                          createdAt: Date(timeIntervalSince1970: try c[5].decode(Double.self)),
                          likes: try c[6].decode(Int64.self), comments: try c[7].decode(Int64.self), shares: try c[8].decode(Int64.self),
                          views: try c[17].decode(Int64.self), hidden: try c[9].decode(Bool.self), liked: try c[10].decode(Bool.self), followed: try c[11].decode(Bool.self), media: media)
    }

    /// The post `id` as `viewer` sees it; with `lock`, its row is locked for the transaction.
    static func visiblePost(_ db: SocialConnection, id: Int64, viewer: Viewer, lock: Bool = false) async throws -> SocialPost {
        let tail: SocialQuery = lock ? " FOR UPDATE OF p" : ""
        guard let row = try await db.row("\(postColumns(viewer)) WHERE p.id = \(id) AND \(visible(viewer))\(tail)") else {
            throw SocialError.unknownPost(id)
        }
        return try post(row)
    }

    /// Removes `post` (locked already) and what hangs on it (likes, tags, comments, reports), and
    /// takes it out of its author's counts: the likes column as the database has it now, so a
    /// like committed meanwhile is taken out too.
    static func removePost(_ db: SocialConnection, _ post: SocialPost) async throws {
        let id = post.id
        try await db.execute("DELETE FROM post_like WHERE post_id = \(id)")
        try await db.execute("DELETE FROM post_tag WHERE post_id = \(id)")
        try await db.execute("DELETE FROM report WHERE post_id = \(id) OR comment_id IN (SELECT id FROM post_comment WHERE post_id = \(id))")
        try await db.execute("DELETE FROM post_comment WHERE post_id = \(id)")
        try await db.execute("""
            UPDATE app_user SET videos = videos - 1, likes = likes - (SELECT likes FROM post WHERE id = \(id)) WHERE name = \(post.author)
            """)
        try await db.execute("DELETE FROM post WHERE id = \(id)")
    }

    /// Makes the user rows of `names` that are not there yet, in name order.
    func ensureUsers(_ db: SocialConnection, _ names: String...) async throws {
        for name in Set(names).sorted() {
            try await db.execute("INSERT INTO app_user(name, created_at) VALUES (\(name), \(nowValue)) ON CONFLICT (name) DO NOTHING")
        }
    }

    /// Whether either of `a` and `b` blocked the other.
    static func blocked(_ db: SocialConnection, _ a: String, _ b: String) async throws -> Bool {
        try await db.row("SELECT 1 FROM user_block WHERE (blocker = \(a) AND blocked = \(b)) OR (blocker = \(b) AND blocked = \(a))") != nil
    }

    /// Whether the user `name` exists.
    static func userExists(_ db: SocialConnection, _ name: String) async throws -> Bool {
        try await db.row("SELECT 1 FROM app_user WHERE name = \(name)") != nil
    }
}
