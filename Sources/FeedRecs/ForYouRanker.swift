import Foundation
import FeedSocial

/// Ranks a For You page from what the store and the model give it; no I/O, so that its rules
/// are tested directly. The candidates:
///
/// - **similar_to**: neighbours (by co-watching, ``RecsModel``) of what the viewer wanted most;
///   a skipped video's neighbours count against.
/// - **topic**: the best videos of the hashtags the viewer watches.
/// - **followed**: the newest posts of the people they follow.
/// - **trending**: the model's (or, with no model, the most played of the week).
/// - **new** and **explore**: ``explorationShare`` of the page, by default 20 %: new posts
///   (under 48 h) until their first 200 plays, those on the viewer's hashtags first and the
///   newest first, then, half and half, the ranking's own tail (past two pages' worth) and posts
///   picked at random, so that a new video with no history reaches viewers.
///
/// Each is scored as the sum of its parts (co-watching, creator and hashtag affinity, a
/// follow, quality, trend, freshness) and the reason is the largest part. The rules that hold on
/// every page: nothing the viewer may not see (the store checked), nothing marked
/// `not_interested` nor of a creator hidden, nothing shown in the last 14 days while anything
/// else is left, nothing on an earlier page of the cursor, and never two of one creator in a row.
struct ForYouRanker {
    var model: RecsModel?
    var history: ViewerHistory
    var signals: ViewerSignals
    var followed: [PostFact]
    var fresh: [PostFact]
    var popular: [PostFact]
    var newest: [PostFact]
    var served: Set<Int64>
    var now: Double
    var limit: Int
    var explorationShare: Double
    var seed: UInt64

    /// How long a post counts as new, in seconds.
    static let newAge: Double = 48 * 3600
    /// The plays a new post is explored for before it competes on its own signals.
    static let firstAudience: Int64 = 200

    /// One candidate with its score and reason.
    struct Candidate {
        var id: Int64
        var author: String?
        var score: Float
        var reason: RecsReason
    }

    /// The candidates to exploit, best first, and those to explore, in the order to try them.
    func candidates() -> (exploit: [Candidate], explore: [Candidate]) {
        var facts: [Int64: PostFact] = [:]
        for list in [followed, fresh, popular, newest] { for fact in list { facts[fact.id] = fact } }
        // The parts of each candidate's score. Over the model's videos they are kept by index in
        // arrays (a page reads thousands of neighbours: no dictionary of ids for them).
        var creatorWish: [String: Float] = [:], tagWish: [String: Float] = [:]
        let n = model?.videos.count ?? 0
        var cf = [Float](repeating: 0, count: n), because = [Int32](repeating: -1, count: n), best = [Float](repeating: -.infinity, count: n)
        var touched: [Int32] = []
        var creatorWishByIndex = [Float](repeating: 0, count: model?.authors.count ?? 0)
        var tagWishByIndex = [Float](repeating: 0, count: model?.tags.count ?? 0)
        let wanted = history.mostWanted(100)
        if let model {
            for (video, weight) in wanted {
                guard let v = model.index[video] else { continue }
                let a = model.videoAuthor[Int(v)]
                if a >= 0 {
                    creatorWishByIndex[Int(a)] += weight
                    creatorWish[model.authors[Int(a)], default: 0] += weight
                }
                for t in model.tagIndexes(v) {
                    tagWishByIndex[Int(t)] += weight
                    tagWish[model.tags[Int(t)], default: 0] += weight
                }
                for k in model.neighbourRange(v) {
                    let j = Int(model.neighbours[k])
                    let add = weight * model.similarity[k]
                    if because[j] < 0 { touched.append(Int32(j)) }
                    cf[j] += add
                    if add > best[j] { best[j] = add; because[j] = v }
                }
            }
            // What was skipped pulls its neighbours (and its creator) down.
            for (video, weight) in history.wants where weight < 0 {
                guard let v = model.index[video] else { continue }
                let a = model.videoAuthor[Int(v)]
                if a >= 0 {
                    creatorWishByIndex[Int(a)] += weight / 2
                    creatorWish[model.authors[Int(a)], default: 0] += weight / 2
                }
                for k in model.neighbourRange(v) where because[Int(model.neighbours[k])] >= 0 {
                    cf[Int(model.neighbours[k])] += weight * model.similarity[k] / 2
                }
            }
        } else {
            for (video, weight) in wanted {
                guard let fact = facts[video] else { continue }
                creatorWish[fact.author, default: 0] += weight
                for tag in fact.hashtags { tagWish[tag, default: 0] += weight }
            }
        }
        // The best co-watched only: a few thousand neighbours, a page of 20.
        var cfBest = TopK(capacity: 1500)
        for j in touched where cf[Int(j)] > 0 { cfBest.offer(cf[Int(j)], j) }
        let maxCF = max(touched.map { cf[Int($0)] }.max() ?? 0, 1e-6)
        let maxCreator = max(creatorWish.values.max() ?? 0, 1e-6), maxTag = max(tagWish.values.max() ?? 0, 1e-6)
        let followedAuthors = Set(followed.map(\.author))
        // Trending, as ranks 1 → 0.
        var trend: [Int64: Float] = [:]
        if let model {
            let count = Float(max(model.trending.count, 1))
            for (rank, v) in model.trending.prefix(300).enumerated() { trend[model.videos[Int(v)]] = 1 - Float(rank) / count }
        } else {
            let count = Float(max(popular.count, 1))
            for (rank, fact) in popular.enumerated() { trend[fact.id] = 1 - Float(rank) / count }
        }
        // The pool: every source's videos.
        var pool = Set(cfBest.sorted().map { model?.videos[Int($0.1)] ?? 0 }).union(trend.keys).union(followed.map(\.id))
        let topTags = tagWish.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
        let topCreators = creatorWish.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
        if let model {
            for (tag, _) in topTags {
                guard let t = model.tagIndex[tag] else { continue }
                for v in model.topOfTag(t).prefix(150) { pool.insert(model.videos[Int(v)]) }
            }
            for (creator, _) in topCreators {
                for v in (model.authorVideos[creator] ?? []).prefix(40) { pool.insert(model.videos[Int(v)]) }
            }
        }
        for fact in fresh.prefix(50) where !topTags.isEmpty && fact.hashtags.contains(where: { tag in topTags.contains { $0.key == tag } }) {
            pool.insert(fact.id)
        }
        var exploit: [Candidate] = []
        exploit.reserveCapacity(pool.count)
        for id in pool {
            let v = model?.index[id]
            let fact = facts[id]
            // Author, creator wish and the best hashtag wish: by index for the model's videos.
            let by: String?
            var creator: Float = 0, topic: Float = 0, topTag: String?
            if let model, let v {
                let a = model.videoAuthor[Int(v)]
                by = a >= 0 ? model.authors[Int(a)] : fact?.author
                if a >= 0 { creator = creatorWishByIndex[Int(a)] }
                var bestTag: Int32 = -1
                for t in model.tagIndexes(v) where tagWishByIndex[Int(t)] > topic || bestTag < 0 {
                    topic = max(topic, tagWishByIndex[Int(t)])
                    bestTag = t
                }
                if bestTag >= 0 { topTag = model.tags[Int(bestTag)] }
            } else {
                by = fact?.author
                creator = by.flatMap { creatorWish[$0] } ?? 0
                for tag in fact?.hashtags ?? [] where (tagWish[tag] ?? 0) > topic || topTag == nil {
                    topic = max(topic, tagWish[tag] ?? 0)
                    topTag = tag
                }
            }
            guard allowed(id, author: by) else { continue }
            let cfScore = v.map { max(0, cf[Int($0)]) / maxCF } ?? 0
            let parts = (cf: cfScore, creator: max(0, creator) / maxCreator, topic: max(0, topic) / maxTag,
                         follow: by.map { followedAuthors.contains($0) ? Float(1) : 0 } ?? 0, trend: trend[id] ?? 0)
            let quality = v.map { model?.quality[Int($0)] ?? 0.3 } ?? 0.3
            let age = fact.map { now - $0.createdAt }
            let freshness = age.map { Float(exp(-$0 / (3 * 86400))) } ?? 0
            let disliked = min(0, creator) / maxCreator
            let score = 1.0 * parts.cf + 0.4 * parts.creator + 0.45 * parts.topic + 0.5 * parts.follow + 0.15 * parts.trend
                + 0.5 * quality + 0.1 * freshness + 0.5 * disliked
            // The reason: the largest of the parts that can say why.
            let shares: [Float] = [0.5 * parts.follow, 1.0 * parts.cf, 0.45 * parts.topic, 0.15 * parts.trend]
            var largest = 0
            for i in 1..<shares.count where shares[i] > shares[largest] { largest = i }
            let reason: RecsReason
            if shares[largest] <= 0 {
                reason = age.map { $0 < Self.newAge } == true ? .new : .trending
            } else {
                switch largest {
                case 0: reason = .followed
                case 1: reason = .similarTo(video: v.flatMap { because[Int($0)] >= 0 ? model?.videos[Int(because[Int($0)])] : nil } ?? 0)
                case 2: reason = .topic(topTag ?? "")
                default: reason = .trending
                }
            }
            exploit.append(Candidate(id: id, author: by, score: score, reason: reason))
        }
        exploit.sort { $0.score != $1.score ? $0.score > $1.score : $0.id > $1.id }
        // Exploration: new posts that have not yet had their first audience (``firstAudience``
        // plays), those on the viewer's hashtags first, newest first; then the rest shuffled by
        // the seed.
        var explore: [Candidate] = []
        var taken = Set<Int64>()
        let liked = Set(topTags.map(\.key))
        let waiting = fresh.filter { now - $0.createdAt < Self.newAge && $0.views < Self.firstAudience && allowed($0.id, author: $0.author) }
            .sorted { a, b in
                let (ma, mb) = (a.hashtags.contains(where: liked.contains), b.hashtags.contains(where: liked.contains))
                return ma != mb ? ma : (a.createdAt, a.id) > (b.createdAt, b.id)
            }
        for fact in waiting where taken.insert(fact.id).inserted {
            explore.append(Candidate(id: fact.id, author: fact.author, score: 0, reason: .new))
        }
        var random = SplitMix(seed: seed ^ UInt64(served.count))
        // Then, half and half, the ranking's tail (what it is least sure of, past the first
        // pages' worth: a second look at it) and posts at random, both shuffled by the seed.
        let seenLately = history.seen
        var tail = exploit.dropFirst(limit * 2).filter { seenLately[$0.id] == nil }.prefix(200).map { Candidate(id: $0.id, author: $0.author, score: 0, reason: .explore) }
        tail.shuffle(using: &random)
        var rest = (newest + popular).filter { allowed($0.id, author: $0.author) }.map { Candidate(id: $0.id, author: $0.author, score: 0, reason: .explore) }
        rest.shuffle(using: &random)
        for candidate in Self.alternating(tail, rest) where taken.insert(candidate.id).inserted { explore.append(candidate) }
        // Interleave new and explore, so that both reach the page.
        let mixed = Self.alternating(explore.filter { $0.reason == .new }, explore.filter { $0.reason == .explore })
        // Unseen first in each list (each in its order), so that the posts read for the page are
        // the ones it may show before any seen lately.
        let seen = history.seen
        func unseenFirst(_ list: [Candidate]) -> [Candidate] { list.filter { seen[$0.id] == nil } + list.filter { seen[$0.id] != nil } }
        return (unseenFirst(exploit), unseenFirst(mixed))
    }

    /// `a` and `b` taken in turn, one of each, then what is left of the longer.
    static func alternating(_ a: [Candidate], _ b: [Candidate]) -> [Candidate] {
        var out: [Candidate] = []
        out.reserveCapacity(a.count + b.count)
        for i in 0..<max(a.count, b.count) {
            if i < a.count { out.append(a[i]) }
            if i < b.count { out.append(b[i]) }
        }
        return out
    }

    /// Whether `id` may be on the page at all: not said no to, not on an earlier page.
    func allowed(_ id: Int64, author: String?) -> Bool {
        !signals.notInterested.contains(id) && !served.contains(id) && !(author.map(signals.hiddenCreators.contains) ?? false)
    }

    /// The page from the candidates whose posts the viewer may see (`visible`), in order: the
    /// exploration slots (every fifth place at 20 %) from `explore`, the rest from `exploit`;
    /// unseen first, never two of one creator in a row.
    func page(exploit: [Candidate], explore: [Candidate], visible: [Int64: SocialPost]) -> [Recommendation] {
        let seenSince = history.seen
        func usable(_ c: Candidate) -> Bool {
            guard let post = visible[c.id] else { return false }
            return !signals.hiddenCreators.contains(post.author)
        }
        let unseenExploit = exploit.filter { usable($0) && seenSince[$0.id] == nil }
        let unseenExplore = explore.filter { usable($0) && seenSince[$0.id] == nil }
        // Shown before, the longest ago first: only when nothing else is left.
        let seen = (exploit + explore).filter { usable($0) && seenSince[$0.id] != nil }
            .sorted { (seenSince[$0.id] ?? 0, $0.id) < (seenSince[$1.id] ?? 0, $1.id) }
        let explorationSlots = Int((Double(limit) * explorationShare).rounded())
        let every = explorationSlots > 0 ? max(1, limit / explorationSlots) : Int.max
        var queues = [unseenExploit, unseenExplore, seen]
        var used = Set<Int64>(), items: [Recommendation] = []
        var lastAuthor: String?
        /// Takes the first candidate of queue `q` whose author is not the last one.
        func take(_ q: Int) -> Bool {
            var i = 0
            while i < queues[q].count {
                let c = queues[q][i]
                guard let post = visible[c.id], !used.contains(c.id) else { queues[q].remove(at: i); continue }
                if post.author == lastAuthor { i += 1; continue }
                queues[q].remove(at: i)
                used.insert(c.id)
                lastAuthor = post.author
                items.append(Recommendation(post: post, reason: c.reason))
                return true
            }
            return false
        }
        while items.count < limit {
            let slot = items.count
            let order: [Int] = (slot + 1) % every == 0 ? [1, 0, 2] : [0, 1, 2]
            guard order.contains(where: take) else { break }
        }
        return items
    }
}

/// A small seeded generator (SplitMix64), so that a cursor's exploration is the same each time.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
