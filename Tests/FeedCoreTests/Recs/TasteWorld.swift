@testable import FeedRecs

/// A small fixed population for the trainer and the evaluator: `clusters` tastes, each with its
/// own videos; every viewer watches most of their own cluster's videos to the end, in time
/// order, and skips the others' they are shown. Four videos every cluster half-watches are
/// the popular ones. Deterministic: SplitMix from a seed.
struct TasteWorld {
    let clusters: Int
    let viewersPerCluster: Int
    let videosPerCluster: Int

    /// Video ids: cluster c's are 1000 * (c + 1) + i; the popular ones 1, 2, 3, 4.
    func video(cluster: Int, _ i: Int) -> Int64 { Int64(1000 * (cluster + 1) + i) }
    static let popular: [Int64] = [1, 2, 3, 4]

    /// Every viewer's events, a minute apart.
    func events(seed: UInt64 = 57) -> [StoredEvent] {
        var random = SplitMix(seed: seed)
        var events: [StoredEvent] = []
        var clock = 1_800_000_000.0
        for c in 0..<clusters {
            for u in 0..<viewersPerCluster {
                let actor = "u:c\(c)-\(u)"
                var own = (0..<videosPerCluster).map { video(cluster: c, $0) }
                own.shuffle(using: &random)
                for (n, id) in own.prefix(videosPerCluster * 3 / 4).enumerated() {
                    clock += 60
                    events.append(StoredEvent(actor: actor, type: .impression, video: id, at: clock))
                    events.append(StoredEvent(actor: actor, type: .watch, video: id, at: clock + 1, watchedMs: 9000, durationMs: 10000))
                    if n % 3 == 0 { events.append(StoredEvent(actor: actor, type: .like, video: id, at: clock + 2)) }
                    if n % 4 == 0 {
                        let other = video(cluster: (c + 1) % clusters, Int(random.next() % UInt64(videosPerCluster)))
                        events.append(StoredEvent(actor: actor, type: .impression, video: other, at: clock + 3))
                        events.append(StoredEvent(actor: actor, type: .skip, video: other, at: clock + 4))
                    }
                    if n % 5 == 0 {
                        let hit = Self.popular[Int(random.next() % 4)]
                        events.append(StoredEvent(actor: actor, type: .watch, video: hit, at: clock + 5, watchedMs: 4000, durationMs: 10000))
                    }
                }
            }
        }
        return events
    }
}
