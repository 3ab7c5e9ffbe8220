/// The social catalog: posts, people, follows, per-video comments, likes, shares, blocks,
/// reports and moderation. `FeedSQLite` and `FeedPostgres` implement it beside ``Catalog``, and
/// both run one contract suite.
///
/// Every method is one transaction. Counts (likes, comments, shares, followers, following,
/// videos, likes received) are columns changed in the same transaction as the row they count,
/// by `UPDATE … SET n = n + 1` in the database, never read and written back from Swift, so
/// concurrent writers on several servers never lose one; no listing counts rows. A refused
/// write changes nothing. Who sees what is ``VisibilityRule``, applied inside each query.
///
/// A user's row is made by their first write (publishing, following, liking, commenting,
/// blocking, reporting, editing their profile): the JWT's `sub` is their name.
public protocol SocialStore: Sendable {
    // MARK: Posts

    /// Publishes a recording: its owner (or the admin, for the owner) makes it a post.
    /// - Throws: ``SocialError/unknownRecording(_:)`` (none, or another user's),
    ///   ``SocialError/recordingHasNoOwner(_:)``, ``SocialError/alreadyPublished(recording:post:)``.
    func publish(_ draft: PostDraft) async throws(SocialError) -> SocialPost

    /// The post `id` as `viewer` sees it. Throws ``SocialError/unknownPost(_:)`` when there is
    /// none or the viewer may not see it (the two are not told apart).
    func post(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost

    /// The post of a recording, if it is published, as the admin sees it.
    func post(recording: Int64) async throws(SocialError) -> SocialPost?

    /// Changes a post's description and visibility (nil keeps it): its author or the admin.
    func editPost(id: Int64, viewer: Viewer, text: PostText?, visibility: Visibility?) async throws(SocialError) -> SocialPost

    /// Unpublishes a post (its likes, comments and reports go with it; the recording stays in
    /// its owner's roll) and returns it as it was: its author or the admin.
    func unpublish(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost

    /// A page of the posts `viewer` may see.
    func posts(_ query: PostQuery, viewer: Viewer) async throws(SocialError) -> [SocialPost]

    /// How many posts of `query` (ignoring its page) `viewer` may see, counting no further than
    /// `limit`: what a listing that pages by offset past the posts needs, at the cost of the
    /// offset itself.
    func visiblePostCount(_ query: PostQuery, viewer: Viewer, upTo limit: Int) async throws(SocialError) -> Int

    /// Likes (or unlikes) a post the viewer may see; idempotent. Returns the post after.
    func setLike(_ on: Bool, postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost

    /// Counts a share of a post the viewer may see. Returns the post after.
    func share(postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost

    // MARK: People

    /// The profile of `name`, with whether `viewer` follows and blocked them.
    /// Throws ``SocialError/unknownUser(_:)``.
    func profile(name: String, viewer: Viewer) async throws(SocialError) -> Profile

    /// Changes the profile of `name` (made if new). An avatar must be one of their own recordings.
    func editProfile(name: String, _ edit: ProfileEdit) async throws(SocialError) -> Profile

    /// Follows (or unfollows) `followee`; idempotent. Returns whether anything changed.
    /// - Throws: ``SocialError/selfRelation(_:)``, ``SocialError/unknownUser(_:)`` (following
    ///   nobody), ``SocialError/blocked(_:)``.
    func setFollow(_ on: Bool, follower: String, followee: String) async throws(SocialError) -> Bool

    /// A page of the users who follow `name`, or whom `name` follows, newest follow first,
    /// below `before` (a ``FollowEntry/cursor``).
    func follows(of name: String, _ direction: FollowDirection, before: Int64?, limit: Int) async throws(SocialError) -> [FollowEntry]

    /// Blocks (or unblocks) `blocked`; idempotent. Blocking also ends the follows of either by
    /// the other. Returns whether anything changed.
    func setBlock(_ on: Bool, blocker: String, blocked: String) async throws(SocialError) -> Bool

    // MARK: Comments

    /// Adds a comment to a post the viewer may see (or a reply, with `parent`).
    /// - Throws: ``SocialError/unknownPost(_:)``, ``SocialError/closedToComments(post:why:)``,
    ///   ``SocialError/unknownComment(_:)``, ``SocialError/replyToReply(_:)``,
    ///   ``SocialError/parentOnOtherPost(parent:post:)``, ``SocialError/blocked(_:)``.
    func addComment(postID: Int64, viewer: Viewer, text: String, parent: Int64?) async throws(SocialError) -> PostComment

    /// The comment `id`, if the viewer may see it and its post.
    func comment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment

    /// A page of a post's comments (`parent` nil) or of a comment's replies, newest first,
    /// below `before`, without those the viewer may not see (hidden, blocked).
    func comments(postID: Int64, parent: Int64?, viewer: Viewer, before: Int64?, limit: Int) async throws(SocialError) -> [PostComment]

    /// Deletes a comment (and its replies): its author, the post's author or the admin.
    /// Returns the comment as it was.
    func deleteComment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment

    // MARK: Safety

    /// Files a report of a post or comment the viewer may see.
    func report(_ target: Report.Target, viewer: Viewer, reason: Report.Reason, note: String) async throws(SocialError) -> Report

    /// A page of reports, newest first, below `before`: the admin's.
    func reports(before: Int64?, limit: Int) async throws(SocialError) -> [Report]

    /// Hides (or shows again) a post or comment: the admin's. Returns whether anything changed.
    func setHidden(_ hidden: Bool, _ target: Report.Target) async throws(SocialError) -> Bool

    // MARK: Live streams that publish

    /// Files that live stream `streamID`'s recording is to be published when it is ready, as
    /// `draft` says (its recording id is not known yet: 0).
    func setLivePublish(streamID: Int64, _ draft: LivePublishDraft) async throws(SocialError)

    /// What live stream `streamID` asked to publish, if anything (and it is not done yet).
    func livePublish(streamID: Int64) async throws(SocialError) -> LivePublishDraft?

    /// Forgets what live stream `streamID` asked to publish (it is done, or cannot be).
    func clearLivePublish(streamID: Int64) async throws(SocialError)
}
