import FeedCore
import FeedSocial
import Foundation

/// The For You use cases every front end calls (`feed serve`'s routes, `feed recs`, `feed
/// events import`): storing events, ranking a page, training a model.
public struct Recs: Sendable {
    /// The catalog's events, posts and models.
    public let store: any RecsStore
    /// The model in hand.
    public let models: ModelCache
    /// The share of each page kept for exploration (0…1): 20 % unless told.
    public let explorationShare: Double
    /// The time now (tests drive it).
    public let clock: @Sendable () -> Date

    /// How long a video shown stays out of For You while others are left: 14 days.
    public static let seenWindow: Double = 14 * 86400
    /// The exploration share unless told: 20 %.
    public static let defaultExplorationShare = 0.2
    /// The longest page.
    public static let maxLimit = 100

    /// The use cases over `store`.
    public init(store: any RecsStore, explorationShare: Double = Recs.defaultExplorationShare,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        models = ModelCache(store: store)
        self.explorationShare = min(max(explorationShare, 0), 1)
        self.clock = clock
    }

    /// Stores a batch from `sender`. A user's batch whose events name a `device` links that
    /// device to the user first (its history joins theirs).
    public func record(_ events: [FeedEvent], sender: EventActor) async throws(RecsError) -> EventOutcome {
        let now = clock().timeIntervalSince1970
        if let user = sender.user {
            for device in Set(events.compactMap(\.device)) { _ = try await store.link(device: device, to: user, now: now) }
        }
        return try await store.record(events, sender: sender, now: now)
    }

    /// The actor a request's events and pages are: its user, else the device it names.
    /// - Throws: ``RecsError/needsActor(_:)`` when it names neither.
    public static func actor(user: String?, device: String?, what: String) throws(RecsError) -> EventActor {
        if let user { return .user(user) }
        if let device, EventBatch.isName(device) { return .device(device) }
        throw .needsActor(what)
    }

    /// The next page of For You for `actor` (as `viewer` sees the catalog), after `cursor`.
    public func forYou(actor: EventActor, viewer: Viewer, limit: Int = 20, cursor: ForYouCursor? = nil) async throws(RecsError) -> ForYouPage {
        guard (1...Self.maxLimit).contains(limit) else { throw .invalidParameter("limit", "must be 1 to \(Self.maxLimit), not \(limit)") }
        let now = clock().timeIntervalSince1970
        let cursor = cursor ?? ForYouCursor(seed: UInt64.random(in: 1...UInt64.max))
        let model = await models.model()
        let events = try await store.history(of: actor, since: now - 90 * 86400, limit: 2000)
        let signals = try await store.signals(of: actor)
        var followed: [PostFact] = []
        if let user = actor.user { followed = try await store.followedPosts(of: user, limit: 100) }
        let fresh = try await store.freshPosts(since: now - ForYouRanker.newAge, limit: 200)
        let popular = model == nil ? try await store.popularPosts(since: now - 7 * 86400, limit: 200) : []
        let newest = try await store.newestPosts(limit: 300)
        let ranker = ForYouRanker(model: model, history: ViewerHistory(events, now: now, seenSince: now - Self.seenWindow), signals: signals,
                                  followed: followed, fresh: fresh, popular: popular, newest: newest, served: Set(cursor.served), now: now,
                                  limit: limit, explorationShare: explorationShare, seed: cursor.seed)
        let (exploit, explore) = ranker.candidates()
        // The posts the viewer may see, read for the best few of each list.
        let wanted = Array(exploit.prefix(limit * 4).map(\.id)) + Array(explore.prefix(limit * 2).map(\.id))
        var visible: [Int64: SocialPost] = [:]
        for post in try await store.visiblePosts(ids: Array(Set(wanted)), viewer: viewer) { visible[post.id] = post }
        var items = ranker.page(exploit: exploit, explore: explore, visible: visible)
        if items.count < limit, exploit.count + explore.count > wanted.count {
            // Many of the best were not the viewer's to see: read the rest.
            let rest = (exploit.map(\.id) + explore.map(\.id)).filter { visible[$0] == nil }.prefix(500)
            for post in try await store.visiblePosts(ids: Array(Set(rest)), viewer: viewer) { visible[post.id] = post }
            items = ranker.page(exploit: exploit, explore: explore, visible: visible)
        }
        return ForYouPage(items: items, next: cursor.after(items.map(\.post.id)), modelVersion: model?.version)
    }

    /// Trains a model from the events now and stores it; the next pages serve it.
    public func train(trainer: RecsTrainer = RecsTrainer()) async throws(RecsError) -> ModelInfo {
        let info = try await trainer.train(store: store, now: clock().timeIntervalSince1970)
        await models.refresh()
        return info
    }
}
