import FeedCore
import FeedRecs
import FeedSocial
import Foundation
internal import GRDB

/// For You's events on SQLite: a batch in one write transaction, each event `INSERT … ON
/// CONFLICT DO NOTHING` on its sender and id (a retried batch adds nothing), each new play of
/// a post one more in its `views` by `views = views + n`.
extension SQLiteCatalog: RecsStore {
    /// Runs a write transaction (``refusing(_:write:)`` with For You's errors).
    func recsWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecsError) -> T {
        try await refusing(RecsError.store, write: body)
    }

    /// Runs a read.
    func recsRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecsError) -> T {
        try await refusing(RecsError.store, read: body)
    }

    public func record(_ events: [FeedEvent], sender: EventActor, now: Double) async throws(RecsError) -> EventOutcome {
        try await recsWrite { db in
            var actor = sender.key
            if case let .device(device) = sender,
               let user = try String.fetchOne(db, sql: "SELECT user_name FROM device_link WHERE device = ?", arguments: [device]) {
                actor = EventActor.user(user).key
            }
            let insert = try db.cachedStatement(sql: """
                INSERT INTO event(sender, client_id, actor, type, video, at, watched_ms, duration_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sender, client_id) DO NOTHING
                """)
            var outcome = EventOutcome()
            var plays: [Int64: Int] = [:]
            let senderKey = sender.key
            for event in events {
                let at = event.at?.timeIntervalSince1970 ?? now
                try insert.execute(arguments: [senderKey, event.id, actor, event.type.rawValue, event.video, at, event.watchedMs, event.durationMs])
                if db.changesCount > 0 {
                    outcome.accepted += 1
                    if event.type == .watch, event.video >= SocialPost.firstID { plays[event.video, default: 0] += 1 }
                } else {
                    outcome.duplicates += 1
                }
            }
            let count = try db.cachedStatement(sql: "UPDATE post SET views = views + ? WHERE id = ?")
            for (video, n) in plays.sorted(by: { $0.key < $1.key }) {
                try count.execute(arguments: [n, video])
                if db.changesCount > 0 { outcome.plays += n }
            }
            return outcome
        }
    }

    public func link(device: String, to user: String, now: Double) async throws(RecsError) -> Int {
        try await recsWrite { db in
            try db.execute(literal: """
                INSERT INTO device_link(device, user_name, linked_at) VALUES (\(device), \(user), \(now))
                ON CONFLICT (device) DO UPDATE SET user_name = excluded.user_name, linked_at = excluded.linked_at
                """)
            try db.execute(literal: "UPDATE event SET actor = \(EventActor.user(user).key) WHERE actor = \(EventActor.device(device).key)")
            return db.changesCount
        }
    }

    public func history(of actor: EventActor, since: Double, limit: Int) async throws(RecsError) -> [StoredEvent] {
        try await recsRead { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT actor, type, video, at, watched_ms, duration_ms FROM event WHERE actor = ? AND at >= ? ORDER BY at DESC LIMIT ?
                """), arguments: [actor.key, since, limit]).compactMap(Self.event)
        }
    }

    public func signals(of actor: EventActor) async throws(RecsError) -> ViewerSignals {
        try await recsRead { db in
            var signals = ViewerSignals()
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT e.type, e.video, p.author FROM event e LEFT JOIN post p ON p.id = e.video
                WHERE e.actor = ? AND e.type IN ('not_interested', 'hide_creator')
                """), arguments: [actor.key]) {
                let type: String = row[0]
                if type == EventType.notInterested.rawValue { signals.notInterested.insert(row[1]) } else if let author: String = row[2] {
                    signals.hiddenCreators.insert(author)
                }
            }
            return signals
        }
    }

    public func events(since: Double, batch: Int, _ body: @escaping @Sendable ([StoredEvent]) throws -> Void) async throws(RecsError) {
        try await recsRead { db in
            var events: [StoredEvent] = []
            events.reserveCapacity(batch)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT actor, type, video, at, watched_ms, duration_ms FROM event WHERE at >= ? ORDER BY seq
                """, arguments: [since])
            while let row = try rows.next() {
                if let event = Self.event(row) { events.append(event) }
                if events.count >= batch {
                    try body(events)
                    events.removeAll(keepingCapacity: true)
                }
            }
            if !events.isEmpty { try body(events) }
        }
    }

    public func eventCount() async throws(RecsError) -> Int {
        try await recsRead { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") ?? 0 }
    }

    /// A row of `actor, type, video, at, watched_ms, duration_ms` (nil: a type this feed does not know).
    static func event(_ row: Row) -> StoredEvent? {
        guard let type = EventType(rawValue: row[1]) else { return nil }
        return StoredEvent(actor: row[0], type: type, video: row[2], at: row[3], watchedMs: row[4], durationMs: row[5])
    }
}
