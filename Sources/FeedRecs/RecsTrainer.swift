import FeedCore
import Foundation

/// Trains the For You model from the events: item-to-item collaborative filtering over
/// implicit feedback. Each viewer's wish for each video is the sum of their events' weights
/// (``InteractionWeight``: watch time and completion above likes, a 30-day half-life); two
/// videos are neighbours when the same viewers wanted both, by the cosine of their columns
/// shrunk toward 0 for few viewers in common. Beside it: each video's quality (the share of it
/// viewers watch, smoothed toward the mean), what is trending (weights of the last 3 days, a
/// 1-day half-life) and each hashtag's best videos.
///
/// The co-watching pass is the costly one (the sum over viewers of their videos squared, each
/// viewer's capped at ``perViewer``); it runs on `threads` threads, off Swift's pool.
public struct RecsTrainer: Sendable {
    /// How far back events count, in seconds: 90 days.
    public var window: Double = 90 * 86400
    /// Half-life of a viewer's wish, in seconds: 30 days.
    public var halfLife: Double = 30 * 86400
    /// Neighbours kept per video.
    public var neighbours = 80
    /// Videos per viewer that count toward co-watching: their most wanted.
    public var perViewer = 200
    /// Viewers in common at which a similarity keeps half its cosine.
    public var shrinkage: Float = 2
    /// Trending: events of the last `trendWindow` seconds, halving every `trendHalfLife`.
    public var trendWindow: Double = 3 * 86400
    public var trendHalfLife: Double = 86400
    /// Trending videos kept.
    public var trendingCount = 1000
    /// Best videos kept per hashtag.
    public var perTag = 300
    /// Threads for the co-watching pass.
    public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// A trainer with the defaults above.
    public init() {}

    /// Trains from every event in `store` of the last ``window``, as of `now`, and stores the
    /// model; returns its row. The catalog is read in batches and the work runs on the caller's
    /// executor (a job runner's pool thread).
    public func train(store: any RecsStore, now: Double) async throws(RecsError) -> ModelInfo {
        let started = ContinuousClock.now
        let facts = try await store.postFacts()
        let accumulator = EventAccumulator(videos: facts.map(\.id), now: now, halfLife: halfLife, trendHalfLife: trendHalfLife, trendWindow: trendWindow)
        try await store.events(since: now - window, batch: 10_000) { batch in accumulator.add(batch) }
        var model = build(facts: facts, from: accumulator)
        model.info.seconds = (ContinuousClock.now - started) / .seconds(1)
        let bytes = model.encoded()
        model.info.bytes = bytes.count
        model.info.trainedAt = now
        return try await store.saveModel(bytes, info: model.info)
    }

    /// The model of what `accumulator` took, over the videos of `facts` (in its order).
    func build(facts: [PostFact], from accumulator: EventAccumulator) -> RecsModel {
        let n = facts.count
        // Authors and hashtags, numbered.
        var authorIndex: [String: Int32] = [:], authors: [String] = [], videoAuthor: [Int32] = []
        var tagIndex: [String: Int32] = [:], tags: [String] = [], tagOffsets: [Int32] = [0], tagList: [Int32] = []
        videoAuthor.reserveCapacity(n)
        for fact in facts {
            if let a = authorIndex[fact.author] { videoAuthor.append(a) } else {
                authorIndex[fact.author] = Int32(authors.count)
                videoAuthor.append(Int32(authors.count))
                authors.append(fact.author)
            }
            for tag in fact.hashtags {
                if let t = tagIndex[tag] { tagList.append(t) } else {
                    tagIndex[tag] = Int32(tags.count)
                    tagList.append(Int32(tags.count))
                    tags.append(tag)
                }
            }
            tagOffsets.append(Int32(tagList.count))
        }
        // Quality: the share watched per showing, smoothed toward the mean with 10 showings' weight.
        let exposures = (0..<n).map { max(accumulator.shown[$0], accumulator.plays[$0]) }
        let totalShown = exposures.reduce(0, +), totalWatched = accumulator.watched.reduce(0, +)
        let mean: Float = totalShown > 0 ? totalWatched / totalShown : 0.3
        let prior: Float = 10
        let quality = (0..<n).map { (accumulator.watched[$0] + mean * prior) / (exposures[$0] + prior) }
        let (offsets, neighbourList, similarity) = coWatching(videos: n, viewers: accumulator.viewerIndex.count, pairs: accumulator.pairs)
        // Trending, most first.
        let trending = (0..<n).filter { accumulator.trend[$0] > 0 }.sorted { accumulator.trend[$0] > accumulator.trend[$1] }.prefix(trendingCount)
        // Each hashtag's best: quality times how many were shown it (log), most first.
        var byTag = [[Int32]](repeating: [], count: tags.count)
        for v in 0..<n {
            for t in tagList[Int(tagOffsets[v])..<Int(tagOffsets[v + 1])] { byTag[Int(t)].append(Int32(v)) }
        }
        var tagTopOffsets: [Int32] = [0], tagTop: [Int32] = []
        for videos in byTag {
            let best = videos.sorted { a, b in
                let sa = quality[Int(a)] * log1p(exposures[Int(a)] + accumulator.trend[Int(a)])
                let sb = quality[Int(b)] * log1p(exposures[Int(b)] + accumulator.trend[Int(b)])
                return sa != sb ? sa > sb : a > b
            }.prefix(perTag)
            tagTop.append(contentsOf: best)
            tagTopOffsets.append(Int32(tagTop.count))
        }
        let info = ModelInfo(version: 0, trainedAt: accumulator.now, events: accumulator.events, viewers: accumulator.viewerIndex.count,
                             videos: n, seconds: 0, bytes: 0)
        return RecsModel(info: info, videos: facts.map(\.id), authors: authors, videoAuthor: videoAuthor, tags: tags, tagOffsets: tagOffsets,
                         tagList: tagList, neighbourOffsets: offsets, neighbours: neighbourList, similarity: similarity, quality: quality,
                         trending: trending.map { Int32($0) }, trendScore: trending.map { accumulator.trend[$0] },
                         tagTopOffsets: tagTopOffsets, tagTop: tagTop)
    }

    /// Each video's ``neighbours`` nearest by co-watching, as offsets, neighbours and similarities.
    func coWatching(videos n: Int, viewers: Int, pairs: [UInt64: Float]) -> ([Int32], [Int32], [Float]) {
        // Each viewer's most wanted videos (positive weights only).
        var perViewerLists = [[(video: Int32, weight: Float)]](repeating: [], count: viewers)
        for (key, weight) in pairs where weight > 0.25 {
            perViewerLists[Int(key >> 32)].append((Int32(truncatingIfNeeded: key & 0xFFFF_FFFF), weight))
        }
        var rowOffsets = [Int32](repeating: 0, count: viewers + 1)
        var rowVideos: [Int32] = [], rowWeights: [Float] = []
        for u in 0..<viewers {
            // Most wanted first (ties by video), so that the same events make the same model.
            var list = perViewerLists[u].sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.video < $1.video }
            if list.count > perViewer { list.removeSubrange(perViewer...) }
            for entry in list {
                rowVideos.append(entry.video)
                rowWeights.append(entry.weight)
            }
            rowOffsets[u + 1] = Int32(rowVideos.count)
        }
        perViewerLists = []
        // The transpose: each video's viewers.
        var columnCounts = [Int32](repeating: 0, count: n + 1)
        for v in rowVideos { columnCounts[Int(v) + 1] += 1 }
        for v in 0..<n { columnCounts[v + 1] += columnCounts[v] }
        let columnOffsets = columnCounts
        var fill = columnCounts
        var columnViewers = [Int32](repeating: 0, count: rowVideos.count), columnWeights = [Float](repeating: 0, count: rowVideos.count)
        var norms = [Float](repeating: 0, count: n)
        for u in 0..<viewers {
            for k in Int(rowOffsets[u])..<Int(rowOffsets[u + 1]) {
                let v = Int(rowVideos[k])
                let at = Int(fill[v])
                columnViewers[at] = Int32(u)
                columnWeights[at] = rowWeights[k]
                fill[v] += 1
                norms[v] += rowWeights[k] * rowWeights[k]
            }
        }
        for v in 0..<n { norms[v] = norms[v].squareRoot() }
        let threads = max(1, min(self.threads, 8))
        let graph = CoWatchGraph(videos: n, rowOffsets: rowOffsets, rowVideos: rowVideos, rowWeights: rowWeights, columnOffsets: columnOffsets,
                                 columnViewers: columnViewers, columnWeights: columnWeights, norms: norms, keep: neighbours, shrinkage: shrinkage)
        let results = Locked<[[(Int32, [Int32], [Float])]]>(Array(repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let mine = graph.neighbours(from: thread, stride: threads)
            results.withLock { $0[thread] = mine }
        }
        // Back in video order.
        var byVideo = [(neighbours: [Int32], similarity: [Float])](repeating: ([], []), count: n)
        for list in results.withLock({ $0 }) {
            for (v, neighbours, similarity) in list { byVideo[Int(v)] = (neighbours, similarity) }
        }
        var offsets: [Int32] = [0], list: [Int32] = [], similarity: [Float] = []
        for entry in byVideo {
            list.append(contentsOf: entry.neighbours)
            similarity.append(contentsOf: entry.similarity)
            offsets.append(Int32(list.count))
        }
        return (offsets, list, similarity)
    }
}
