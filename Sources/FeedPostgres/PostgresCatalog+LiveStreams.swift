import FeedCore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func insertLiveStream(_ stream: LiveStream) async throws(RollError) -> LiveStream {
        let keyHash = stream.keyHash, state = stream.state.rawValue, created = stream.createdAt.timeIntervalSince1970
        let wentLive = stream.wentLiveAt?.timeIntervalSince1970, ended = stream.endedAt?.timeIntervalSince1970
        let rows = try await rows("""
            INSERT INTO live_stream(title, stream_key, key_hash, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin)
            VALUES (\(stream.title), \(stream.streamKey), \(keyHash), \(state), \(stream.owner), \(created), \(wentLive), \(ended),
                    \(stream.recordingID), \(stream.error), \(stream.origin))
            RETURNING id
            """)
        return try await decoded {
            guard let id = try rows.first?.decode(Int64.self) else {
                throw RollError.database(path: location.description, reason: "the live stream was not returned")
            }
            var stored = stream
            stored.id = id
            return stored
        }
    }

    public func liveStream(id: Int64) async throws(RollError) -> LiveStream? {
        let rows = try await rows("""
            SELECT id, title, stream_key, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin, viewers, hearts
            FROM live_stream WHERE id = \(id)
            """)
        return try await decoded { try rows.first.map(Self.liveStream) }
    }

    public func liveStream(keyHash: String) async throws(RollError) -> LiveStream? {
        let rows = try await rows("""
            SELECT id, title, stream_key, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin, viewers, hearts
            FROM live_stream WHERE key_hash = \(keyHash)
            """)
        return try await decoded { try rows.first.map(Self.liveStream) }
    }

    public func liveStreams(before: Int64?, limit: Int, ownedBy owner: String?) async throws(RollError) -> [LiveStream] {
        let before = before ?? Int64.max, limit = Int64(min(limit, Int(Int64.max)))
        let rows: [PostgresRow]
        if let owner {
            rows = try await self.rows("""
                SELECT id, title, stream_key, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin, viewers, hearts
                FROM live_stream WHERE owner = \(owner) AND id < \(before) ORDER BY id DESC LIMIT \(limit)
                """)
        } else {
            rows = try await self.rows("""
                SELECT id, title, stream_key, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin, viewers, hearts
                FROM live_stream WHERE id < \(before) ORDER BY id DESC LIMIT \(limit)
                """)
        }
        return try await decoded { try rows.map(Self.liveStream) }
    }

    public func updateLiveStream(_ stream: LiveStream, ifState expected: LiveStream.State) async throws(RollError) -> Bool {
        let keyHash = stream.keyHash, state = stream.state.rawValue, expected = expected.rawValue
        let wentLive = stream.wentLiveAt?.timeIntervalSince1970, ended = stream.endedAt?.timeIntervalSince1970
        return try await !rows("""
            UPDATE live_stream SET title = \(stream.title), stream_key = \(stream.streamKey), key_hash = \(keyHash), state = \(state),
                went_live_at = \(wentLive), ended_at = \(ended), recording_id = \(stream.recordingID), error = \(stream.error),
                origin = \(stream.origin)
            WHERE id = \(stream.id) AND state = \(expected)
            RETURNING id
            """).isEmpty
    }

    private static func liveStream(_ row: PostgresRow) throws -> LiveStream {
        let (id, title, key, state, owner, created, wentLive, ended, recording, error, origin, viewers, hearts) =
            try row.decode((Int64, String, String, String, String?, Double, Double?, Double?, Int64?, String?, String?, Int32, Int64).self)
        return LiveStream(id: id, title: title, streamKey: key, state: LiveStream.State(rawValue: state) ?? .ended, owner: owner,
                          createdAt: Date(timeIntervalSince1970: created), wentLiveAt: wentLive.map(Date.init(timeIntervalSince1970:)),
                          endedAt: ended.map(Date.init(timeIntervalSince1970:)), recordingID: recording, error: error,
                          origin: origin, viewers: Int(viewers), hearts: hearts)
    }

    public func addLiveHearts(stream streamID: Int64, count: Int) async throws(RollError) {
        let count = Int64(count)
        _ = try await rows("UPDATE live_stream SET hearts = hearts + \(count) WHERE id = \(streamID)")
    }

    public func setLiveViewers(stream streamID: Int64, count: Int) async throws(RollError) {
        let count = Int32(clamping: count)
        _ = try await rows("UPDATE live_stream SET viewers = \(count) WHERE id = \(streamID)")
    }

    public func addLiveComment(_ comment: LiveComment) async throws(RollError) -> LiveComment {
        let created = comment.createdAt.timeIntervalSince1970, streamTime = comment.streamTime?.timeIntervalSince1970
        let rows = try await rows("""
            INSERT INTO live_comment(stream_id, username, text, created_at, stream_time, owner)
            VALUES (\(comment.streamID), \(comment.username), \(comment.text), \(created), \(streamTime), \(comment.owner))
            RETURNING id
            """)
        return try await decoded {
            guard let id = try rows.first?.decode(Int64.self) else {
                throw RollError.database(path: location.description, reason: "the live comment was not returned")
            }
            var stored = comment
            stored.id = id
            return stored
        }
    }

    public func liveComments(stream streamID: Int64, after: Int64, limit: Int) async throws(RollError) -> [LiveComment] {
        let limit = Int64(min(limit, Int(Int64.max)))
        return try await liveComments(try await rows("""
            SELECT id, stream_id, username, text, created_at, stream_time, owner FROM live_comment
            WHERE stream_id = \(streamID) AND id > \(after) ORDER BY id LIMIT \(limit)
            """))
    }

    public func liveComments(stream streamID: Int64, before: Int64?, limit: Int) async throws(RollError) -> [LiveComment] {
        let limit = Int64(min(limit, Int(Int64.max))), before = before ?? Int64.max
        return try await liveComments(try await rows("""
            SELECT id, stream_id, username, text, created_at, stream_time, owner FROM live_comment
            WHERE stream_id = \(streamID) AND id < \(before) ORDER BY id DESC LIMIT \(limit)
            """))
    }

    private func liveComments(_ rows: [PostgresRow]) async throws(RollError) -> [LiveComment] {
        try await decoded {
            try rows.map { row in
                let (id, stream, username, text, created, streamTime, owner) =
                    try row.decode((Int64, Int64, String, String, Double, Double?, String?).self)
                return LiveComment(id: id, streamID: stream, username: username, text: text, createdAt: Date(timeIntervalSince1970: created),
                                   streamTime: streamTime.map(Date.init(timeIntervalSince1970:)), owner: owner)
            }
        }
    }
}
