import FeedCore
import FeedSocial

/// The catalog's side of For You: events, the posts the ranking picks from, and the trained
/// models every server shares. `FeedSQLite` and `FeedPostgres` implement it beside
/// ``SocialStore``, and both run one contract suite.
///
/// A batch of events is one transaction: stored whole or not at all. An event is keyed by its
/// sender and its id, so a retried batch adds nothing; each new `watch` of a post adds one to
/// its `views` in the same transaction (`views = views + n` in the database).
public protocol RecsStore: Sendable {
    /// Stores `events` sent by `sender` (their history joins the user a device is linked to).
    /// Events sent before with the same ids are skipped.
    func record(_ events: [FeedEvent], sender: EventActor, now: Double) async throws(RecsError) -> EventOutcome

    /// Links `device` to `user`: the device's events join the user's history, and so do the
    /// ones it sends from now on. Returns how many events moved.
    func link(device: String, to user: String, now: Double) async throws(RecsError) -> Int

    /// The actor's latest events (newest first), at most `limit`, none before `since`.
    func history(of actor: EventActor, since: Double, limit: Int) async throws(RecsError) -> [StoredEvent]

    /// What the actor marked `not_interested`, and the authors of what they marked `hide_creator`.
    func signals(of actor: EventActor) async throws(RecsError) -> ViewerSignals

    /// Every event since `since`, oldest first, in batches of at most `batch`, handed to `body`.
    func events(since: Double, batch: Int, _ body: @escaping @Sendable ([StoredEvent]) throws -> Void) async throws(RecsError)

    /// How many events are stored (all of them).
    func eventCount() async throws(RecsError) -> Int

    /// Every post's facts (the model's videos).
    func postFacts() async throws(RecsError) -> [PostFact]

    /// The newest posts, at most `limit`, newest first.
    func newestPosts(limit: Int) async throws(RecsError) -> [PostFact]

    /// The posts published since `since`, newest first (new videos waiting for their first
    /// viewers), at most `limit`.
    func freshPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact]

    /// The most played posts published since `since`, at most `limit`: trending while no model
    /// has been trained.
    func popularPosts(since: Double, limit: Int) async throws(RecsError) -> [PostFact]

    /// The newest posts of the people `user` follows, at most `limit`.
    func followedPosts(of user: String, limit: Int) async throws(RecsError) -> [PostFact]

    /// The posts among `ids` that `viewer` may see, in no order.
    func visiblePosts(ids: [Int64], viewer: Viewer) async throws(RecsError) -> [SocialPost]

    /// Stores a trained model; the catalog numbers it. Keeps the newest few and drops the rest.
    func saveModel(_ data: [UInt8], info: ModelInfo) async throws(RecsError) -> ModelInfo

    /// The newest model's row, if any.
    func latestModel() async throws(RecsError) -> ModelInfo?

    /// A model's bytes (nil: it is gone).
    func modelData(version: Int64) async throws(RecsError) -> [UInt8]?
}
