import FeedCore
import Foundation
internal import GRDB

extension SQLiteCatalog {
    /// The columns a live stream is read from, in ``liveStream(_:)``'s order.
    private static let liveColumns = "id, title, stream_key, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin, viewers, hearts"

    public func insertLiveStream(_ stream: LiveStream) async throws(RollError) -> LiveStream {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO live_stream(title, stream_key, key_hash, state, owner, created_at, went_live_at, ended_at, recording_id, error, origin)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [stream.title, stream.streamKey, stream.keyHash, stream.state.rawValue, stream.owner,
                                 stream.createdAt.timeIntervalSince1970, stream.wentLiveAt?.timeIntervalSince1970,
                                 stream.endedAt?.timeIntervalSince1970, stream.recordingID, stream.error, stream.origin])
            var stored = stream
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    public func liveStream(id: Int64) async throws(RollError) -> LiveStream? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.liveColumns) FROM live_stream WHERE id = ?", arguments: [id]).map(Self.liveStream)
        }
    }

    public func liveStream(keyHash: String) async throws(RollError) -> LiveStream? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.liveColumns) FROM live_stream WHERE key_hash = ?", arguments: [keyHash]).map(Self.liveStream)
        }
    }

    public func liveStreams(before: Int64?, limit: Int, ownedBy owner: String?) async throws(RollError) -> [LiveStream] {
        let before = before ?? Int64.max, limit = Int64(min(limit, Int(Int64.max)))
        return try await read { db in
            if let owner {
                return try Row.fetchAll(db, sql: "SELECT \(Self.liveColumns) FROM live_stream WHERE owner = ? AND id < ? ORDER BY id DESC LIMIT ?",
                                        arguments: [owner, before, limit]).map(Self.liveStream)
            }
            return try Row.fetchAll(db, sql: "SELECT \(Self.liveColumns) FROM live_stream WHERE id < ? ORDER BY id DESC LIMIT ?",
                                    arguments: [before, limit]).map(Self.liveStream)
        }
    }

    public func updateLiveStream(_ stream: LiveStream, ifState expected: LiveStream.State) async throws(RollError) -> Bool {
        try await write { db in
            try db.execute(sql: """
                UPDATE live_stream SET title = ?, stream_key = ?, key_hash = ?, state = ?, went_live_at = ?, ended_at = ?,
                    recording_id = ?, error = ?, origin = ?
                WHERE id = ? AND state = ?
                """, arguments: [stream.title, stream.streamKey, stream.keyHash, stream.state.rawValue,
                                 stream.wentLiveAt?.timeIntervalSince1970, stream.endedAt?.timeIntervalSince1970,
                                 stream.recordingID, stream.error, stream.origin, stream.id, expected.rawValue])
            return db.changesCount > 0
        }
    }

    private static func liveStream(_ row: Row) -> LiveStream {
        LiveStream(id: row[0], title: row[1], streamKey: row[2], state: LiveStream.State(rawValue: row[3]) ?? .ended, owner: row[4],
                   createdAt: Date(timeIntervalSince1970: row[5]), wentLiveAt: (row[6] as Double?).map(Date.init(timeIntervalSince1970:)),
                   endedAt: (row[7] as Double?).map(Date.init(timeIntervalSince1970:)), recordingID: row[8], error: row[9],
                   origin: row[10], viewers: row[11], hearts: row[12])
    }

    public func addLiveHearts(stream streamID: Int64, count: Int) async throws(RollError) {
        try await write { db in
            try db.execute(sql: "UPDATE live_stream SET hearts = hearts + ? WHERE id = ?", arguments: [count, streamID])
        }
    }

    public func setLiveViewers(stream streamID: Int64, count: Int) async throws(RollError) {
        try await write { db in
            try db.execute(sql: "UPDATE live_stream SET viewers = ? WHERE id = ?", arguments: [count, streamID])
        }
    }

    public func addLiveComment(_ comment: LiveComment) async throws(RollError) -> LiveComment {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO live_comment(stream_id, username, text, created_at, stream_time, owner) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [comment.streamID, comment.username, comment.text, comment.createdAt.timeIntervalSince1970,
                                 comment.streamTime?.timeIntervalSince1970, comment.owner])
            var stored = comment
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    public func liveComments(stream streamID: Int64, after: Int64, limit: Int) async throws(RollError) -> [LiveComment] {
        let limit = Int64(min(limit, Int(Int64.max)))
        return try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, stream_id, username, text, created_at, stream_time, owner FROM live_comment
                WHERE stream_id = ? AND id > ? ORDER BY id LIMIT ?
                """, arguments: [streamID, after, limit]).map(Self.liveComment)
        }
    }

    public func liveComments(stream streamID: Int64, before: Int64?, limit: Int) async throws(RollError) -> [LiveComment] {
        let limit = Int64(min(limit, Int(Int64.max)))
        return try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, stream_id, username, text, created_at, stream_time, owner FROM live_comment
                WHERE stream_id = ? AND id < ? ORDER BY id DESC LIMIT ?
                """, arguments: [streamID, before ?? Int64.max, limit]).map(Self.liveComment)
        }
    }

    private static func liveComment(_ row: Row) -> LiveComment {
        LiveComment(id: row[0], streamID: row[1], username: row[2], text: row[3], createdAt: Date(timeIntervalSince1970: row[4]),
                    streamTime: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)), owner: row[6])
    }
}
