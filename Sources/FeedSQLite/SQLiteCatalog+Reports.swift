import FeedCore
import FeedSocial
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func report(_ target: Report.Target, viewer: Viewer, reason: Report.Reason, note: String) async throws(SocialError) -> Report {
        if note.count > Report.maximumNote { throw SocialError.invalidField("note", "is \(note.count) characters; at most \(Report.maximumNote)") }
        let now = nowSeconds
        return try await socialWrite { db in
            let name = try viewer.actingUser("reporting")
            let (post, comment): (Int64?, Int64?)
            switch target {
            case .post(let id): _ = try Self.visiblePost(db, id: id, viewer: viewer); (post, comment) = (id, nil)
            case .comment(let id): _ = try Self.comment(db, id: id, viewer: viewer); (post, comment) = (nil, id)
            }
            try Self.ensureUser(db, name, now: now)
            try db.execute(literal: """
                INSERT INTO report(post_id, comment_id, reporter, reason, note, created_at) VALUES (\(post), \(comment), \(name), \(reason.rawValue), \(note), \(now))
                """)
            return Report(id: db.lastInsertedRowID, target: target, reporter: name, reason: reason, note: note, createdAt: Date(timeIntervalSince1970: now))
        }
    }

    public func reports(before: Int64?, limit: Int) async throws(SocialError) -> [Report] {
        try await socialRead { db in
            try Self.rows(db, """
                SELECT id, post_id, comment_id, reporter, reason, note, created_at FROM report WHERE id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(limit)
                """).map { row in
                let post: Int64? = row[1]
                return Report(id: row[0], target: post.map(Report.Target.post) ?? .comment(row[2]), reporter: row[3],
                              reason: Report.Reason(rawValue: row[4]) ?? .other, note: row[5], createdAt: Date(timeIntervalSince1970: row[6]))
            }
        }
    }

    public func setHidden(_ hidden: Bool, _ target: Report.Target) async throws(SocialError) -> Bool {
        try await socialWrite { db in
            switch target {
            case .post(let id):
                try db.execute(literal: "UPDATE post SET hidden = \(hidden) WHERE id = \(id) AND hidden <> \(hidden)")
                if db.changesCount > 0 { return true }
                if try Self.value(db, "SELECT 1 FROM post WHERE id = \(id)", as: Int.self) == nil { throw SocialError.unknownPost(id) }
            case .comment(let id):
                try db.execute(literal: "UPDATE post_comment SET hidden = \(hidden) WHERE id = \(id) AND hidden <> \(hidden)")
                if db.changesCount > 0 { return true }
                if try Self.value(db, "SELECT 1 FROM post_comment WHERE id = \(id)", as: Int.self) == nil { throw SocialError.unknownComment(id) }
            }
            return false
        }
    }
}
