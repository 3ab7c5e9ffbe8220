import FeedCore
import FeedSocial
import Foundation
import PostgresNIO

extension PostgresCatalog {
    public func setLivePublish(streamID: Int64, _ draft: LivePublishDraft) async throws(SocialError) {
        try await social { db in
            try await db.execute("""
                INSERT INTO live_publish(stream_id, author, description, visibility) VALUES (\(streamID), \(draft.author), \(draft.text.text), \(draft.visibility.rawValue))
                ON CONFLICT (stream_id) DO UPDATE SET author = EXCLUDED.author, description = EXCLUDED.description, visibility = EXCLUDED.visibility
                """)
        }
    }

    public func livePublish(streamID: Int64) async throws(SocialError) -> LivePublishDraft? {
        try await social { db in
            try await db.row("SELECT author, description, visibility FROM live_publish WHERE stream_id = \(streamID)").map { row in
                let (author, description, visibility) = try row.decode((String?, String, String).self)
                return LivePublishDraft(author: author, text: PostText(stored: description), visibility: Visibility(rawValue: visibility) ?? .public)
            }
        }
    }

    public func clearLivePublish(streamID: Int64) async throws(SocialError) {
        try await social { db in try await db.execute("DELETE FROM live_publish WHERE stream_id = \(streamID)") }
    }
}
