import Foundation
import FeedCore

/// The social use cases every front end calls (`feed serve`'s routes, `feed publish` and
/// `feed unpublish`): the catalog's write, then what follows it. Publishing makes the post's
/// poster at once and queues its HLS ladder as an `hls` job (whose end fires `hls.ready`); the
/// writes that have a webhook event queue it (`video.published`, `video.removed`,
/// `comment.created`, `report.created`, `user.followed`). What follows never undoes the write:
/// a poster or a queue that fails is left to the poster route and the next request.
public struct Social: Sendable {
    /// The roll whose catalog holds the posts, and whose media the posters come from.
    public let roll: Roll
    /// The catalog's social side.
    public let store: any SocialStore
    /// Where the poster is drawn (FFmpeg, off Swift's cooperative pool).
    public let pool: BlockingPool

    /// The use cases over `roll`'s catalog (which must be a social store: both catalogs are).
    public init(roll: Roll, store: any SocialStore, pool: BlockingPool) {
        self.roll = roll
        self.store = store
        self.pool = pool
    }

    /// Publishes a recording: the post, its poster, its ladder queued, `video.published`.
    public func publish(_ draft: PostDraft) async throws(SocialError) -> SocialPost {
        let post = try await store.publish(draft)
        if let recording = try? await roll.catalog.recording(id: post.recordingID) {
            let roll = self.roll
            _ = try? await pool.run { () throws(RollError) -> URL in try roll.thumbnail(of: recording) }
            if roll.cachedHLS(of: recording) == nil {
                _ = try? await roll.catalog.enqueue(.hls(RecordingJobRequest(recording: post.recordingID)), maxAttempts: JobPolicy.defaultMaxAttempts,
                                                    owner: recording.owner)
            }
        }
        _ = try? await roll.emit(.published(post))
        return post
    }

    /// Unpublishes a post (``SocialStore/unpublish(id:viewer:)``), then `video.removed`.
    public func unpublish(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost {
        let post = try await store.unpublish(id: id, viewer: viewer)
        _ = try? await roll.emit(.removed(post, by: viewer))
        return post
    }

    /// Adds a comment (``SocialStore/addComment(postID:viewer:text:parent:)``), then `comment.created`.
    public func addComment(postID: Int64, viewer: Viewer, text: String, parent: Int64?) async throws(SocialError) -> PostComment {
        let comment = try await store.addComment(postID: postID, viewer: viewer, text: text, parent: parent)
        _ = try? await roll.emit(.commented(comment))
        return comment
    }

    /// Files a report (``SocialStore/report(_:viewer:reason:note:)``), then `report.created`.
    public func report(_ target: Report.Target, viewer: Viewer, reason: Report.Reason, note: String) async throws(SocialError) -> Report {
        let report = try await store.report(target, viewer: viewer, reason: reason, note: note)
        _ = try? await roll.emit(.reported(report))
        return report
    }

    /// Follows or unfollows (``SocialStore/setFollow(_:follower:followee:)``); a new follow fires `user.followed`.
    public func setFollow(_ on: Bool, follower: String, followee: String) async throws(SocialError) -> Bool {
        let changed = try await store.setFollow(on, follower: follower, followee: followee)
        if on && changed { _ = try? await roll.emit(.followed(follower, followee)) }
        return changed
    }
}
