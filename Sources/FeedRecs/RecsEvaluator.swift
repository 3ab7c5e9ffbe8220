import Foundation

/// An offline replay: holds out each viewer's latest events (``holdout`` of them), trains on
/// the rest as ``RecsTrainer`` does, ranks each viewer's top ``k`` from their training events
/// as For You does (without its exploration slots), and measures what the held-out events went
/// on to want, beside the most wanted videos of the training split (popularity).
///
/// A held-out video is wanted when its held-out events weigh more than 0.25
/// (``InteractionWeight``); its gain in NDCG is that weight. Videos a viewer met in training are
/// ranked for neither (For You does not show them again).
public struct RecsEvaluator: Sendable {
    /// The share of each viewer's events held out: their latest.
    public var holdout: Double
    /// The page length.
    public var k: Int
    /// The trainer.
    public var trainer: RecsTrainer

    /// An evaluator.
    /// - Throws: ``RecsError/invalidParameter(_:_:)`` for a holdout outside 0 < h < 1 or k < 1.
    public init(holdout: Double = 0.2, k: Int = 20, trainer: RecsTrainer = RecsTrainer()) throws(RecsError) {
        guard holdout > 0, holdout < 1 else { throw .invalidParameter("holdout", "must be between 0 and 1, not \(holdout)") }
        guard k >= 1 else { throw .invalidParameter("k", "must be 1 or more, not \(k)") }
        self.holdout = holdout
        self.k = k
        self.trainer = trainer
    }

    /// The report of `events` (in any order; ties in time keep their order).
    public func evaluate(_ events: [StoredEvent]) -> EvaluationReport {
        var byActor: [String: [StoredEvent]] = [:]
        for event in events { byActor[event.actor, default: []].append(event) }
        var train: [StoredEvent] = [], held: [String: [StoredEvent]] = [:]
        // In the actors' order, so that every sum runs in one order and the same events give the same report.
        for (actor, list) in byActor.sorted(by: { $0.key < $1.key }) {
            let sorted = list.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
            let cut = sorted.count - Int((Double(sorted.count) * holdout).rounded())
            train += sorted[..<cut]
            if cut < sorted.count { held[actor] = Array(sorted[cut...]) }
        }
        let now = train.map(\.at).max() ?? 0
        let videos = Array(Set(events.map(\.video))).sorted()
        // The events hold no authors: each video is its own author, so no creator is favoured.
        let facts = videos.map { PostFact(id: $0, author: "video \($0)", createdAt: now) }
        let accumulator = EventAccumulator(videos: videos, now: now, halfLife: trainer.halfLife, trendHalfLife: trainer.trendHalfLife,
                                           trendWindow: trainer.trendWindow)
        accumulator.add(train)
        let model = trainer.build(facts: facts, from: accumulator)
        // Popularity: the training split's total wish per video.
        var total: [Int64: Float] = [:]
        for event in train { total[event.video, default: 0] += max(0, InteractionWeight.value(event.type, watchedMs: event.watchedMs, durationMs: event.durationMs)) }
        let popular = total.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        var trainByActor: [String: [StoredEvent]] = [:]
        for event in train { trainByActor[event.actor, default: []].append(event) }
        var modelSums = Sums(), popularSums = Sums(), viewers = 0
        for (actor, heldOut) in held.sorted(by: { $0.key < $1.key }) {
            var gain: [Int64: Float] = [:], watched: [Int64: Double] = [:]
            for event in heldOut {
                gain[event.video, default: 0] += InteractionWeight.value(event.type, watchedMs: event.watchedMs, durationMs: event.durationMs)
                if event.type == .watch { watched[event.video, default: 0] += Double(event.watchedMs ?? 0) }
            }
            let mine = trainByActor[actor] ?? []
            let met = Set(mine.map(\.video))
            let wanted = gain.filter { $0.value > 0.25 && !met.contains($0.key) }
            let heldWatch = watched.filter { !met.contains($0.key) }.values.reduce(0, +)
            modelSums.watchTotal += heldWatch
            popularSums.watchTotal += heldWatch
            let ranker = ForYouRanker(model: model, history: ViewerHistory(mine.reversed(), now: now, seenSince: -.infinity), signals: ViewerSignals(),
                                      followed: [], fresh: [], popular: [], newest: [], served: [], now: now, limit: k, explorationShare: 0, seed: 1)
            let ranked = ranker.candidates().exploit.lazy.map(\.id).filter { !met.contains($0) }.prefix(k)
            let popularTop = popular.lazy.filter { !met.contains($0) }.prefix(k)
            modelSums.add(Array(ranked), wanted: wanted, watched: watched, k: k)
            popularSums.add(Array(popularTop), wanted: wanted, watched: watched, k: k)
            if !wanted.isEmpty { viewers += 1 }
        }
        return EvaluationReport(k: k, holdout: holdout, viewers: viewers, videos: videos.count, trainEvents: train.count,
                                heldOutEvents: held.values.map(\.count).reduce(0, +), model: modelSums.metrics(viewers),
                                popularity: popularSums.metrics(viewers))
    }

    /// Running sums of one ranking's metrics.
    struct Sums {
        var recall = 0.0, ndcg = 0.0, watchCaptured = 0.0, watchTotal = 0.0

        mutating func add(_ ranked: [Int64], wanted: [Int64: Float], watched: [Int64: Double], k: Int) {
            watchCaptured += ranked.reduce(0) { $0 + (watched[$1] ?? 0) }
            guard !wanted.isEmpty else { return }
            let hits = ranked.filter { wanted[$0] != nil }.count
            recall += Double(hits) / Double(min(k, wanted.count))
            var dcg = 0.0
            for (rank, id) in ranked.enumerated() { dcg += Double(wanted[id] ?? 0) / log2(Double(rank) + 2) }
            let ideal = wanted.values.sorted(by: >).prefix(k).enumerated().reduce(0.0) { $0 + Double($1.element) / log2(Double($1.offset) + 2) }
            ndcg += ideal > 0 ? dcg / ideal : 0
        }

        func metrics(_ viewers: Int) -> RankingMetrics {
            let n = Double(max(viewers, 1))
            return RankingMetrics(recall: recall / n, ndcg: ndcg / n, watchCaptured: watchTotal > 0 ? watchCaptured / watchTotal : 0)
        }
    }
}
