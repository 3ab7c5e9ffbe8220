import FeedCore
import FeedRecs
import FeedSocial
import Foundation
import PostgresNIO

/// For You's events on PostgreSQL: a batch is one `INSERT … SELECT FROM unnest(…) ON CONFLICT
/// DO NOTHING RETURNING` (one round trip for up to 1,000 events; a retried batch adds nothing),
/// then one `UPDATE post SET views = views + n` for its new plays, posts taken in id order.
extension PostgresCatalog: RecsStore {
    /// Runs `body` in one transaction (``refusing(_:_:)`` with For You's errors).
    func recs<T: Sendable>(_ body: @escaping @Sendable (SocialConnection) async throws -> T) async throws(RecsError) -> T {
        try await refusing(RecsError.store, body)
    }

    public func record(_ events: [FeedEvent], sender: EventActor, now: Double) async throws(RecsError) -> EventOutcome {
        guard !events.isEmpty else { return EventOutcome() }
        let ids = events.map(\.id), types = events.map(\.type.rawValue), videos = events.map(\.video)
        let times = events.map { $0.at?.timeIntervalSince1970 ?? now }
        let watched = events.map { $0.watchedMs ?? -1 }, durations = events.map { $0.durationMs ?? -1 }
        return try await recs { db in
            var actor = sender.key
            if case let .device(device) = sender, let row = try await db.row("SELECT user_name FROM device_link WHERE device = \(device)") {
                actor = EventActor.user(try row.decode(String.self)).key
            }
            let inserted = try await db.rows("""
                INSERT INTO event(sender, client_id, actor, type, video, at, watched_ms, duration_ms)
                SELECT \(sender.key), c, \(actor), t, v, a, NULLIF(w, -1), NULLIF(d, -1)
                FROM unnest(\(ids)::text[], \(types)::text[], \(videos)::int8[], \(times)::float8[], \(watched)::int8[], \(durations)::int8[]) AS x(c, t, v, a, w, d)
                ON CONFLICT (sender, client_id) DO NOTHING RETURNING type, video
                """)
            var outcome = EventOutcome(accepted: inserted.count, duplicates: events.count - inserted.count)
            var plays: [Int64: Int64] = [:]
            for row in inserted {
                let (type, video) = try row.decode((String, Int64).self)
                if type == EventType.watch.rawValue, video >= SocialPost.firstID { plays[video, default: 0] += 1 }
            }
            if !plays.isEmpty {
                let order = plays.keys.sorted()
                let counts = order.map { plays[$0] ?? 0 }
                let counted = try await db.rows("""
                    UPDATE post SET views = views + x.n FROM (SELECT * FROM unnest(\(order)::int8[], \(counts)::int8[]) AS u(id, n) ORDER BY id) x
                    WHERE post.id = x.id RETURNING x.n
                    """)
                outcome.plays = Int(try counted.reduce(Int64(0)) { $0 + (try $1.decode(Int64.self)) })
            }
            return outcome
        }
    }

    public func link(device: String, to user: String, now: Double) async throws(RecsError) -> Int {
        try await recs { db in
            try await db.execute("""
                INSERT INTO device_link(device, user_name, linked_at) VALUES (\(device), \(user), \(now))
                ON CONFLICT (device) DO UPDATE SET user_name = excluded.user_name, linked_at = excluded.linked_at
                """)
            return try await db.execute("UPDATE event SET actor = \(EventActor.user(user).key) WHERE actor = \(EventActor.device(device).key) RETURNING seq")
        }
    }

    public func history(of actor: EventActor, since: Double, limit: Int) async throws(RecsError) -> [StoredEvent] {
        try await recs { db in
            try await db.rows("""
                SELECT actor, type, video, at, watched_ms, duration_ms FROM event WHERE actor = \(actor.key) AND at >= \(since)
                ORDER BY at DESC LIMIT \(limit)
                """).compactMap(Self.event)
        }
    }

    public func signals(of actor: EventActor) async throws(RecsError) -> ViewerSignals {
        try await recs { db in
            var signals = ViewerSignals()
            for row in try await db.rows("""
                SELECT e.type, e.video, p.author FROM event e LEFT JOIN post p ON p.id = e.video
                WHERE e.actor = \(actor.key) AND e.type IN ('not_interested', 'hide_creator')
                """) {
                let (type, video, author) = try row.decode((String, Int64, String?).self)
                if type == EventType.notInterested.rawValue { signals.notInterested.insert(video) } else if let author { signals.hiddenCreators.insert(author) }
            }
            return signals
        }
    }

    /// In pages by `seq`, each its own statement: a read of millions of events never holds one
    /// transaction open (nor runs into the catalog's 30 s deadline for one call).
    public func events(since: Double, batch: Int, _ body: @escaping @Sendable ([StoredEvent]) throws -> Void) async throws(RecsError) {
        var after: Int64 = 0
        while true {
            let from = after
            let (events, last): ([StoredEvent], Int64?) = try await recs { db in
                let rows = try await db.rows("""
                    SELECT actor, type, video, at, watched_ms, duration_ms, seq FROM event WHERE seq > \(from) AND at >= \(since)
                    ORDER BY seq LIMIT \(batch)
                    """)
                return (rows.compactMap(Self.event), try rows.last.map { try $0.makeRandomAccess()[6].decode(Int64.self) })
            }
            guard let last else { return }
            do { try body(events) } catch let error as RecsError { throw error } catch { throw RecsError.store(.store(message: "\(error)", kind: .bug)) }
            after = last
        }
    }

    public func eventCount() async throws(RecsError) -> Int {
        try await recs { db in Int(try await db.row("SELECT count(*) FROM event")?.decode(Int64.self) ?? 0) }
    }

    /// A row of `actor, type, video, at, watched_ms, duration_ms` (nil: a type this feed does not know).
    static func event(_ row: PostgresRow) -> StoredEvent? {
        let c = row.makeRandomAccess()
        guard let actor = try? c[0].decode(String.self), let type = (try? c[1].decode(String.self)).flatMap(EventType.init(rawValue:)),
              let video = try? c[2].decode(Int64.self), let at = try? c[3].decode(Double.self) else { return nil }
        return StoredEvent(actor: actor, type: type, video: video, at: at, watchedMs: try? c[4].decode(Int64?.self),
                           durationMs: try? c[5].decode(Int64?.self))
    }
}
