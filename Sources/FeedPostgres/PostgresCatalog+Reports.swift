import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func report(_ target: Report.Target, viewer: Viewer, reason: Report.Reason, note: String) async throws(SocialError) -> Report {
        if note.count > Report.maximumNote { throw SocialError.invalidField("note", "is \(note.count) characters; at most \(Report.maximumNote)") }
        return try await social { db in
            let name = try viewer.actingUser("reporting")
            let (post, comment): (Int64?, Int64?)
            switch target {
            case .post(let id): _ = try await Self.visiblePost(db, id: id, viewer: viewer); (post, comment) = (id, nil)
            case .comment(let id): _ = try await Self.comment(db, id: id, viewer: viewer); (post, comment) = (nil, id)
            }
            try await self.ensureUsers(db, name)
            guard let row = try await db.row("""
                INSERT INTO report(post_id, comment_id, reporter, reason, note, created_at)
                VALUES (\(post), \(comment), \(name), \(reason.rawValue), \(note), \(self.nowValue)) RETURNING id, created_at
                """) else { throw SocialError.store(.database(path: self.location.description, reason: "the new report has no id")) }
            let (id, created) = try row.decode((Int64, Double).self)
            return Report(id: id, target: target, reporter: name, reason: reason, note: note, createdAt: Date(timeIntervalSince1970: created))
        }
    }

    public func reports(before: Int64?, limit: Int) async throws(SocialError) -> [Report] {
        try await social { db in
            try await db.rows("""
                SELECT id, post_id, comment_id, reporter, reason, note, created_at FROM report
                WHERE id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(Int64(limit))
                """).map { row in
                let (id, post, comment, reporter, reason, note, created) = try row.decode((Int64, Int64?, Int64?, String, String, String, Double).self)
                return Report(id: id, target: post.map(Report.Target.post) ?? .comment(comment ?? 0), reporter: reporter,
                              reason: Report.Reason(rawValue: reason) ?? .other, note: note, createdAt: Date(timeIntervalSince1970: created))
            }
        }
    }

    public func setHidden(_ hidden: Bool, _ target: Report.Target) async throws(SocialError) -> Bool {
        try await social { db in
            switch target {
            case .post(let id):
                if try await db.execute("UPDATE post SET hidden = \(hidden) WHERE id = \(id) AND hidden <> \(hidden) RETURNING id") > 0 { return true }
                if try await db.row("SELECT 1 FROM post WHERE id = \(id)") == nil { throw SocialError.unknownPost(id) }
            case .comment(let id):
                if try await db.execute("UPDATE post_comment SET hidden = \(hidden) WHERE id = \(id) AND hidden <> \(hidden) RETURNING id") > 0 { return true }
                if try await db.row("SELECT 1 FROM post_comment WHERE id = \(id)") == nil { throw SocialError.unknownComment(id) }
            }
            return false
        }
    }
}
