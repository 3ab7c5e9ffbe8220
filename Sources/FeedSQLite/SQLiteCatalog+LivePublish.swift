import FeedCore
import FeedSocial
import Foundation
internal import GRDB

extension SQLiteCatalog {
    public func setLivePublish(streamID: Int64, _ draft: LivePublishDraft) async throws(SocialError) {
        try await socialWrite { db in
            try db.execute(literal: """
                INSERT INTO live_publish(stream_id, author, description, visibility) VALUES (\(streamID), \(draft.author), \(draft.text.text), \(draft.visibility.rawValue))
                ON CONFLICT(stream_id) DO UPDATE SET author = excluded.author, description = excluded.description, visibility = excluded.visibility
                """)
        }
    }

    public func livePublish(streamID: Int64) async throws(SocialError) -> LivePublishDraft? {
        try await socialRead { db in
            try Self.row(db, "SELECT author, description, visibility FROM live_publish WHERE stream_id = \(streamID)").map { row in
                LivePublishDraft(author: row[0], text: PostText(stored: row[1]), visibility: Visibility(rawValue: row[2]) ?? .public)
            }
        }
    }

    public func clearLivePublish(streamID: Int64) async throws(SocialError) {
        try await socialWrite { db in try db.execute(literal: "DELETE FROM live_publish WHERE stream_id = \(streamID)") }
    }
}
