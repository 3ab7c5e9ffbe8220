import FeedCore
import FeedSocial
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func profile(name: String, viewer: Viewer) async throws(SocialError) -> Profile {
        try await socialRead { db in try Self.profile(db, name: name, viewer: viewer) }
    }

    /// The profile of `name` as `viewer` asks for it, inside a transaction.
    static func profile(_ db: Database, name: String, viewer: Viewer) throws -> Profile {
        let me = viewer.name ?? ""
        guard let row = try row(db, """
            SELECT name, display_name, bio, avatar_recording, followers, following, videos, likes, created_at,
                   EXISTS (SELECT 1 FROM follow WHERE follower = \(me) AND followee = u.name),
                   EXISTS (SELECT 1 FROM user_block WHERE blocker = \(me) AND blocked = u.name)
            FROM app_user u WHERE name = \(name)
            """) else { throw SocialError.unknownUser(name) }
        let display: String? = row[1]
        return Profile(name: row[0], displayName: display ?? row[0], bio: row[2], avatarRecording: row[3], followers: row[4],
                       following: row[5], videos: row[6], likes: row[7], createdAt: Date(timeIntervalSince1970: row[8]),
                       followed: row[9], blocked: row[10])
    }

    public func editProfile(name: String, _ edit: ProfileEdit) async throws(SocialError) -> Profile {
        try edit.validate()
        let now = nowSeconds
        return try await socialWrite { db in
            try Self.ensureUser(db, name, now: now)
            if let displayName = edit.displayName { try db.execute(literal: "UPDATE app_user SET display_name = \(displayName) WHERE name = \(name)") }
            if let bio = edit.bio { try db.execute(literal: "UPDATE app_user SET bio = \(bio) WHERE name = \(name)") }
            if let avatar = edit.avatarRecording {
                if let avatar {
                    let owner = try Self.row(db, "SELECT owner FROM recording WHERE id = \(avatar)")
                    guard let owner, (owner[0] as String?) == name else { throw SocialError.unknownRecording(avatar) }
                }
                try db.execute(literal: "UPDATE app_user SET avatar_recording = \(avatar) WHERE name = \(name)")
            }
            return try Self.profile(db, name: name, viewer: .user(name))
        }
    }

    public func setFollow(_ on: Bool, follower: String, followee: String) async throws(SocialError) -> Bool {
        if follower == followee { throw SocialError.selfRelation(follower) }
        let now = nowSeconds
        return try await socialWrite { db in
            guard try Self.value(db, "SELECT 1 FROM app_user WHERE name = \(followee)", as: Int.self) != nil else {
                throw SocialError.unknownUser(followee)
            }
            if on {
                if try Self.blocked(db, follower, followee) { throw SocialError.blocked(followee) }
                try Self.ensureUser(db, follower, now: now)
                try db.execute(literal: "INSERT OR IGNORE INTO follow(follower, followee, created_at) VALUES (\(follower), \(followee), \(now))")
            } else {
                try db.execute(literal: "DELETE FROM follow WHERE follower = \(follower) AND followee = \(followee)")
            }
            guard db.changesCount > 0 else { return false }
            try Self.countFollow(db, follower: follower, followee: followee, step: on ? 1 : -1)
            return true
        }
    }

    /// Moves the two counts of one follow.
    static func countFollow(_ db: Database, follower: String, followee: String, step: Int) throws {
        try db.execute(literal: "UPDATE app_user SET following = following + \(step) WHERE name = \(follower)")
        try db.execute(literal: "UPDATE app_user SET followers = followers + \(step) WHERE name = \(followee)")
    }

    public func follows(of name: String, _ direction: FollowDirection, before: Int64?, limit: Int) async throws(SocialError) -> [FollowEntry] {
        let (mine, theirs): (SQL, SQL) = direction == .followers ? ("followee", "follower") : ("follower", "followee")
        return try await socialRead { db in
            guard try Self.value(db, "SELECT 1 FROM app_user WHERE name = \(name)", as: Int.self) != nil else { throw SocialError.unknownUser(name) }
            return try Self.rows(db, """
                SELECT f.id, u.name, COALESCE(u.display_name, u.name), f.created_at
                FROM follow f JOIN app_user u ON u.name = f.\(literal: theirs)
                WHERE f.\(literal: mine) = \(name) AND f.id < \(before ?? Int64.max)
                ORDER BY f.id DESC LIMIT \(limit)
                """).map { row in FollowEntry(cursor: row[0], name: row[1], displayName: row[2], since: Date(timeIntervalSince1970: row[3])) }
        }
    }

    public func setBlock(_ on: Bool, blocker: String, blocked: String) async throws(SocialError) -> Bool {
        if blocker == blocked { throw SocialError.selfRelation(blocker) }
        let now = nowSeconds
        return try await socialWrite { db in
            guard try Self.value(db, "SELECT 1 FROM app_user WHERE name = \(blocked)", as: Int.self) != nil else {
                throw SocialError.unknownUser(blocked)
            }
            try Self.ensureUser(db, blocker, now: now)
            guard on else {
                try db.execute(literal: "DELETE FROM user_block WHERE blocker = \(blocker) AND blocked = \(blocked)")
                return db.changesCount > 0
            }
            try db.execute(literal: "INSERT OR IGNORE INTO user_block(blocker, blocked, created_at) VALUES (\(blocker), \(blocked), \(now))")
            guard db.changesCount > 0 else { return false }
            // A block ends the follows either way.
            for (follower, followee) in [(blocker, blocked), (blocked, blocker)] {
                try db.execute(literal: "DELETE FROM follow WHERE follower = \(follower) AND followee = \(followee)")
                if db.changesCount > 0 { try Self.countFollow(db, follower: follower, followee: followee, step: -1) }
            }
            return true
        }
    }
}
