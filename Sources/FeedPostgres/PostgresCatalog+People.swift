import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func profile(name: String, viewer: Viewer) async throws(SocialError) -> Profile {
        try await social { db in try await Self.profile(db, name: name, viewer: viewer) }
    }

    /// The profile of `name` as `viewer` asks for it, inside a transaction.
    static func profile(_ db: SocialConnection, name: String, viewer: Viewer) async throws -> Profile {
        let me = viewer.name ?? ""
        guard let row = try await db.row("""
            SELECT name, display_name, bio, avatar_recording, followers, following, videos, likes, created_at,
                   EXISTS (SELECT 1 FROM follow WHERE follower = \(me) AND followee = u.name),
                   EXISTS (SELECT 1 FROM user_block WHERE blocker = \(me) AND blocked = u.name)
            FROM app_user u WHERE name = \(name)
            """) else { throw SocialError.unknownUser(name) }
        let (user, display, bio, avatar, followers, following, videos, likes, created, followed, blocked) =
            try row.decode((String, String?, String, Int64?, Int64, Int64, Int64, Int64, Double, Bool, Bool).self)
        return Profile(name: user, displayName: display ?? user, bio: bio, avatarRecording: avatar, followers: followers,
                       following: following, videos: videos, likes: likes, createdAt: Date(timeIntervalSince1970: created),
                       followed: followed, blocked: blocked)
    }

    public func editProfile(name: String, _ edit: ProfileEdit) async throws(SocialError) -> Profile {
        try edit.validate()
        return try await social { db in
            try await self.ensureUsers(db, name)
            if let displayName = edit.displayName { try await db.execute("UPDATE app_user SET display_name = \(displayName) WHERE name = \(name)") }
            if let bio = edit.bio { try await db.execute("UPDATE app_user SET bio = \(bio) WHERE name = \(name)") }
            if let avatar = edit.avatarRecording {
                if let avatar {
                    let owner = try await db.row("SELECT owner FROM recording WHERE id = \(avatar)")?.decode(String?.self)
                    guard owner == name else { throw SocialError.unknownRecording(avatar) }
                }
                try await db.execute("UPDATE app_user SET avatar_recording = \(avatar) WHERE name = \(name)")
            }
            return try await Self.profile(db, name: name, viewer: .user(name))
        }
    }

    public func setFollow(_ on: Bool, follower: String, followee: String) async throws(SocialError) -> Bool {
        if follower == followee { throw SocialError.selfRelation(follower) }
        return try await social { db in
            guard try await Self.userExists(db, followee) else { throw SocialError.unknownUser(followee) }
            let changed: Int
            if on {
                if try await Self.blocked(db, follower, followee) { throw SocialError.blocked(followee) }
                try await self.ensureUsers(db, follower)
                changed = try await db.execute("""
                    INSERT INTO follow(follower, followee, created_at) VALUES (\(follower), \(followee), \(self.nowValue))
                    ON CONFLICT DO NOTHING RETURNING id
                    """)
            } else {
                changed = try await db.execute("DELETE FROM follow WHERE follower = \(follower) AND followee = \(followee) RETURNING id")
            }
            guard changed > 0 else { return false }
            try await Self.countFollow(db, follower: follower, followee: followee, step: on ? 1 : -1)
            return true
        }
    }

    /// Moves the two counts of one follow, the two rows locked in name order (two users who
    /// follow each other at once never wait for each other).
    static func countFollow(_ db: SocialConnection, follower: String, followee: String, step: Int64) async throws {
        for name in [follower, followee].sorted() {
            if name == follower {
                try await db.execute("UPDATE app_user SET following = following + \(step) WHERE name = \(follower)")
            } else {
                try await db.execute("UPDATE app_user SET followers = followers + \(step) WHERE name = \(followee)")
            }
        }
    }

    public func follows(of name: String, _ direction: FollowDirection, before: Int64?, limit: Int) async throws(SocialError) -> [FollowEntry] {
        let (mine, theirs) = direction == .followers ? ("followee", "follower") : ("follower", "followee")
        return try await social { db in
            guard try await Self.userExists(db, name) else { throw SocialError.unknownUser(name) }
            return try await db.rows("""
                SELECT f.id, u.name, COALESCE(u.display_name, u.name), f.created_at
                FROM follow f JOIN app_user u ON u.name = f.\(raw: theirs)
                WHERE f.\(raw: mine) = \(name) AND f.id < \(before ?? Int64.max)
                ORDER BY f.id DESC LIMIT \(Int64(limit))
                """).map { row in
                let (cursor, user, display, since) = try row.decode((Int64, String, String, Double).self)
                return FollowEntry(cursor: cursor, name: user, displayName: display, since: Date(timeIntervalSince1970: since))
            }
        }
    }

    public func setBlock(_ on: Bool, blocker: String, blocked: String) async throws(SocialError) -> Bool {
        if blocker == blocked { throw SocialError.selfRelation(blocker) }
        return try await social { db in
            guard try await Self.userExists(db, blocked) else { throw SocialError.unknownUser(blocked) }
            try await self.ensureUsers(db, blocker)
            guard on else {
                return try await db.execute("DELETE FROM user_block WHERE blocker = \(blocker) AND blocked = \(blocked) RETURNING blocker") > 0
            }
            let added = try await db.execute("""
                INSERT INTO user_block(blocker, blocked, created_at) VALUES (\(blocker), \(blocked), \(self.nowValue))
                ON CONFLICT DO NOTHING RETURNING blocker
                """)
            guard added > 0 else { return false }
            for (follower, followee) in [(blocker, blocked), (blocked, blocker)] {
                if try await db.execute("DELETE FROM follow WHERE follower = \(follower) AND followee = \(followee) RETURNING id") > 0 {
                    try await Self.countFollow(db, follower: follower, followee: followee, step: -1)
                }
            }
            return true
        }
    }
}
