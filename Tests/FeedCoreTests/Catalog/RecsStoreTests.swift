import Foundation
import FeedRecs
import FeedSocial
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``RecsStore``, and the For You rules over it, run against every
/// implementation in ``CatalogFactory/all``: a batch stored once, views exact, devices joining
/// their user, models numbered; and on every page, nothing the viewer may not see, nothing said
/// no to, nothing seen lately while others are left, never two of one creator in a row.
@Suite("RecsStore and For You (every implementation)")
struct RecsStoreTests {
    /// A fresh catalog on a clock the test drives, with posts made through the social store.
    struct World {
        let catalog: any Catalog
        let clock: ManualWallClock
        var social: any SocialStore { catalog as! any SocialStore }
        var store: any RecsStore { catalog as! any RecsStore }
        private let counter = Locked(0)

        init(catalog: any Catalog, clock: ManualWallClock) {
            self.catalog = catalog
            self.clock = clock
        }

        var now: Double { clock.now().timeIntervalSince1970 }
        var recs: Recs { Recs(store: store, clock: { [clock] in clock.now() }) }

        /// Publishes a new recording of `author`.
        func post(_ author: String, _ text: String = "", _ visibility: Visibility = .public) async throws -> SocialPost {
            let n = counter.withLock { $0 += 1; return $0 }
            var recording = CatalogFactory.recording(n)
            recording.owner = author
            let id = try await catalog.insert(recording, refusingDuplicates: false).id ?? 0
            return try await social.publish(PostDraft(recordingID: id, viewer: .user(author), text: try PostText(validating: text), visibility: visibility))
        }

        /// Events of one type from `sender`, ids from `prefix`.
        func send(_ type: EventType, _ videos: [Int64], from sender: EventActor, prefix: String, at: Double? = nil) async throws -> EventOutcome {
            let events = videos.enumerated().map { index, video in
                FeedEvent(id: "\(prefix)-\(index)", type: type, video: video, at: at.map { Date(timeIntervalSince1970: $0) },
                          watchedMs: type == .watch ? 9000 : nil, durationMs: type == .watch ? 10000 : nil)
            }
            return try await store.record(events, sender: sender, now: now)
        }

        /// Every page of For You for `actor` until `pages` or an empty page.
        func pages(_ actor: EventActor, viewer: Viewer, limit: Int, pages: Int) async throws -> [[Recommendation]] {
            var cursor: ForYouCursor?
            var out: [[Recommendation]] = []
            for _ in 0..<pages {
                let page = try await recs.forYou(actor: actor, viewer: viewer, limit: limit, cursor: cursor)
                if page.items.isEmpty { break }
                out.append(page.items)
                cursor = page.next
            }
            return out
        }
    }

    static func world(_ factory: CatalogFactory) async throws -> World {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        return World(catalog: try await factory.make(try ScratchFolder(), clock: clock), clock: clock)
    }

    /// Whether no two neighbours of `page` share an author.
    static func noCreatorTwiceInARow(_ page: [Recommendation]) -> Bool {
        zip(page, page.dropFirst()).allSatisfy { $0.post.author != $1.post.author }
    }

    @Test("a batch is stored once: a retried batch adds nothing; each new watch of a post is one view, exactly, from any handle",
          arguments: CatalogFactory.all)
    func storedOnce(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let a = try await world.post("alice"), b = try await world.post("bob")
        let events = [FeedEvent(id: "1", type: .impression, video: a.id), FeedEvent(id: "2", type: .watch, video: a.id, watchedMs: 500),
                      FeedEvent(id: "3", type: .watch, video: a.id, watchedMs: 700), FeedEvent(id: "4", type: .watch, video: 7, watchedMs: 1),
                      FeedEvent(id: "4", type: .watch, video: b.id, watchedMs: 1)]
        let first = try await world.store.record(events, sender: .user("vic"), now: world.now)
        #expect(first == EventOutcome(accepted: 4, duplicates: 1, plays: 2), "the second id 4 in one batch is the first's duplicate; video 7 is no post")
        let again = try await world.store.record(events, sender: .user("vic"), now: world.now)
        #expect(again == EventOutcome(accepted: 0, duplicates: 5, plays: 0))
        #expect(try await world.social.post(id: a.id, viewer: .anonymous).views == 2)
        #expect(try await world.social.post(id: b.id, viewer: .anonymous).views == 0)
        // Another sender's ids are theirs: the same ids count again.
        _ = try await world.store.record([FeedEvent(id: "2", type: .watch, video: a.id, watchedMs: 1)], sender: .device("tv"), now: world.now)
        #expect(try await world.social.post(id: a.id, viewer: .anonymous).views == 3)
        #expect(try await world.store.eventCount() == 5)
        // 40 batches of 25 plays from 40 senders at once, through two handles: 1,000 views more, none lost.
        let (one, two) = try await factory.makeClockedPair(try ScratchFolder(), world.clock)
        let stores = [one as! any RecsStore, two as! any RecsStore]
        let social = one as! any SocialStore
        var recording = CatalogFactory.recording(1)
        recording.owner = "carol"
        let id = try await one.insert(recording, refusingDuplicates: false).id ?? 0
        let post = try await social.publish(PostDraft(recordingID: id, viewer: .user("carol"), text: try PostText(validating: "")))
        try await withThrowingTaskGroup(of: EventOutcome.self) { group in
            for sender in 0..<40 {
                group.addTask {
                    let batch = (0..<25).map { FeedEvent(id: "p\($0)", type: .watch, video: post.id, watchedMs: 100) }
                    return try await stores[sender % 2].record(batch, sender: .user("s\(sender)"), now: 1_800_000_000)
                }
            }
            var plays = 0
            for try await outcome in group { plays += outcome.plays }
            #expect(plays == 1000)
        }
        #expect(try await social.post(id: post.id, viewer: .anonymous).views == 1000)
    }

    @Test("a device's events join its user's history when it signs in, and so do the ones it sends after", arguments: CatalogFactory.all)
    func deviceJoinsUser(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let a = try await world.post("alice"), b = try await world.post("alice")
        _ = try await world.send(.watch, [a.id], from: .device("phone"), prefix: "d")
        #expect(try await world.store.history(of: .device("phone"), since: 0, limit: 10).map(\.video) == [a.id])
        #expect(try await world.store.link(device: "phone", to: "vic", now: world.now) == 1)
        #expect(try await world.store.history(of: .device("phone"), since: 0, limit: 10).isEmpty)
        world.clock.advance(by: 5)
        _ = try await world.send(.like, [b.id], from: .device("phone"), prefix: "d2")
        let history = try await world.store.history(of: .user("vic"), since: 0, limit: 10)
        #expect(history.map(\.video) == [b.id, a.id], "newest first")
        #expect(history.map(\.actor) == ["u:vic", "u:vic"])
        #expect(try await world.store.history(of: .user("vic"), since: world.now - 1, limit: 10).map(\.video) == [b.id])
        // Through Recs: a user's batch naming the device links it too.
        _ = try await world.send(.watch, [a.id], from: .device("tablet"), prefix: "t")
        _ = try await world.recs.record([FeedEvent(id: "x", type: .share, video: a.id, device: "tablet")], sender: .user("vic"))
        #expect(try await world.store.history(of: .user("vic"), since: 0, limit: 10).count == 4)
    }

    @Test("models are numbered by the catalog, the newest three kept, their bytes as stored", arguments: CatalogFactory.all)
    func models(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        #expect(try await world.store.latestModel() == nil)
        var versions: [Int64] = []
        for n in 1...4 {
            let info = ModelInfo(version: 0, trainedAt: world.now + Double(n), events: n, viewers: 2, videos: 3, seconds: 0.5, bytes: n)
            versions.append(try await world.store.saveModel(Array(repeating: UInt8(n), count: n), info: info).version)
        }
        #expect(versions == versions.sorted() && Set(versions).count == 4)
        let latest = try #require(try await world.store.latestModel())
        #expect(latest.version == versions[3] && latest.events == 4 && latest.trainedAt == world.now + 4)
        #expect(try await world.store.modelData(version: versions[3]) == [4, 4, 4, 4])
        #expect(try await world.store.modelData(version: versions[1]) == [2, 2])
        #expect(try await world.store.modelData(version: versions[0]) == nil, "only the newest three stay")
    }

    @Test("For You never shows what the viewer may not see, said no to, or saw in the last 14 days while others are left; never one creator twice in a row",
          arguments: CatalogFactory.all)
    func pageRules(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        var visible: [SocialPost] = []
        for n in 0..<8 {
            for author in ["alice", "bob", "carol"] { visible.append(try await world.post(author, "\(author) \(n) #t\(n % 2)")) }
        }
        let secret = try await world.post("alice", "mine", .private)
        let friendsOnly = try await world.post("bob", "friends", .followers)
        let hidden = try await world.post("carol", "hidden")
        #expect(try await world.social.setHidden(true, .post(hidden.id)))
        let blockedPost = try await world.post("dan", "blocked")
        #expect(try await world.social.setBlock(true, blocker: "vic", blocked: "dan"))
        let never = Set([secret.id, friendsOnly.id, hidden.id, blockedPost.id])
        // Others watch in two groups, so the model has something to learn.
        for u in 0..<6 {
            let mine = visible.filter { $0.text.hashtags == ["t\(u % 2)"] }.map(\.id)
            _ = try await world.send(.watch, mine, from: .user("w\(u)"), prefix: "w\(u)", at: world.now - 3600)
        }
        _ = try await world.recs.train()
        // vic saw four lately and two long ago, and said no to one video and to carol.
        let lately = Array(visible.prefix(4).map(\.id)), longAgo = Array(visible[4..<6].map(\.id))
        _ = try await world.send(.impression, lately, from: .user("vic"), prefix: "seen", at: world.now - 86400)
        _ = try await world.send(.impression, longAgo, from: .user("vic"), prefix: "old", at: world.now - 15 * 86400)
        let notInterested = visible[7].id
        _ = try await world.send(.notInterested, [notInterested], from: .user("vic"), prefix: "no")
        _ = try await world.send(.hideCreator, [visible[2].id], from: .user("vic"), prefix: "hide")
        #expect(visible[2].author == "carol")
        let pages = try await world.pages(.user("vic"), viewer: .user("vic"), limit: 5, pages: 10)
        let shown = pages.flatMap { $0 }
        let ids = shown.map(\.post.id)
        #expect(Set(ids).isDisjoint(with: never), "nothing vic may not see")
        #expect(!ids.contains(notInterested) && !shown.contains { $0.post.author == "carol" }, "nothing said no to")
        #expect(Set(ids).count == ids.count, "no video on two pages of one cursor")
        #expect(pages.allSatisfy(Self.noCreatorTwiceInARow), "\(pages.map { $0.map(\.post.author) })")
        let allowed = visible.filter { $0.author != "carol" && $0.id != notInterested }.map(\.id)
        #expect(Set(ids) == Set(allowed), "every other video, in the end")
        // One seen lately comes only when no unseen one can be next: none is left, or those left
        // are all the previous video's creator's.
        let authors = Dictionary(uniqueKeysWithValues: visible.map { ($0.id, $0.author) })
        var unseen = Set(allowed).subtracting(lately)
        for page in pages {
            var previous: String?
            for item in page {
                if lately.contains(item.post.id) {
                    #expect(unseen.allSatisfy { authors[$0] == previous }, "\(item.post.id) came while \(unseen) were left")
                }
                unseen.remove(item.post.id)
                previous = item.post.author
            }
        }
        let firstLately = ids.firstIndex { lately.contains($0) } ?? ids.count
        #expect(longAgo.filter(allowed.contains).allSatisfy { (ids.firstIndex(of: $0) ?? .max) < firstLately }, "seen 15 days ago counts as unseen")
    }

    @Test("a page keeps its exploration share for new posts; a new viewer gets trending and learns from a first swipe", arguments: CatalogFactory.all)
    func explorationAndColdStart(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        var old: [SocialPost] = []
        for n in 0..<10 {
            for author in ["alice", "bob"] { old.append(try await world.post(author, "\(author) #g\(n % 2)")) }
        }
        for u in 0..<8 {
            let mine = old.filter { $0.text.hashtags == ["g\(u % 2)"] }.map(\.id)
            _ = try await world.send(.watch, mine, from: .user("w\(u)"), prefix: "w\(u)", at: world.now - 60)
        }
        // Three days later: a model, then six new posts by four new creators.
        world.clock.advance(by: 3 * 86400)
        _ = try await world.recs.train()
        var fresh: [Int64] = []
        for n in 0..<6 { fresh.append(try await world.post(["erin", "fay", "gus", "hal"][n % 4], "new \(n)").id) }
        let page = try await world.recs.forYou(actor: .device("new-phone"), viewer: .anonymous, limit: 10)
        #expect(page.items.count == 10 && page.modelVersion != nil)
        let exploring = page.items.filter { $0.reason.isExploration }
        #expect(exploring.count >= 2, "20 % of 10: \(page.items.map(\.reason))")
        #expect(exploring.contains { fresh.contains($0.post.id) }, "a new post with no history reaches a viewer")
        #expect(page.items.allSatisfy { [.trending, .new, .explore].contains($0.reason) }, "nothing to be similar to yet: \(page.items.map(\.reason))")
        // One swipe: a long watch of a g0 video; the next page is g0's neighbours, by reason.
        let liked = old.first { $0.text.hashtags == ["g0"] }!.id
        _ = try await world.send(.watch, [liked], from: .device("new-phone"), prefix: "first")
        let next = try await world.recs.forYou(actor: .device("new-phone"), viewer: .anonymous, limit: 10, cursor: page.next)
        let similar = next.items.filter { if case .similarTo(liked) = $0.reason { return true }; return false }
        #expect(!similar.isEmpty, "\(next.items.map(\.reason))")
        #expect(similar.allSatisfy { $0.post.text.hashtags == ["g0"] })
        // With no exploration share, no page slot is kept for it.
        let none = Recs(store: world.store, explorationShare: 0, clock: { [clock = world.clock] in clock.now() })
        let plain = try await none.forYou(actor: .user("w0"), viewer: .user("w0"), limit: 5)
        #expect(!plain.items.isEmpty)
    }
}
