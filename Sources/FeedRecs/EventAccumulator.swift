import Foundation

/// What training gathers from the events, one batch at a time as the catalog streams them: for
/// each viewer and video, how much the viewer wants it (``InteractionWeight``, older events
/// counting less), and for each video how often it was shown, how much of it was watched and
/// how much it is watched now (trending). Used by one thread at a time: the store hands it its
/// batches in order.
final class EventAccumulator: @unchecked Sendable {
    let now: Double
    let halfLife: Double
    let trendHalfLife: Double
    let trendWindow: Double

    /// Video index by id: the posts the model knows (events of other videos are passed over).
    let videoIndex: [Int64: Int32]
    /// Viewer index by key.
    private(set) var viewerIndex: [String: Int32] = [:]
    /// Weight by `viewer << 32 | video`.
    private(set) var pairs: [UInt64: Float] = [:]
    /// Per video: times shown (impressions, or plays where no impression came), the share of it
    /// watched in all, and its trending score.
    private(set) var shown: [Float]
    private(set) var plays: [Float]
    private(set) var watched: [Float]
    private(set) var trend: [Float]
    /// Events taken (of known videos) and passed over.
    private(set) var events = 0
    private(set) var skipped = 0

    init(videos: [Int64], now: Double, halfLife: Double, trendHalfLife: Double, trendWindow: Double) {
        var index: [Int64: Int32] = [:]
        index.reserveCapacity(videos.count)
        for (i, id) in videos.enumerated() { index[id] = Int32(i) }
        videoIndex = index
        self.now = now
        self.halfLife = halfLife
        self.trendHalfLife = trendHalfLife
        self.trendWindow = trendWindow
        shown = [Float](repeating: 0, count: videos.count)
        plays = shown
        watched = shown
        trend = shown
    }

    /// Takes one batch.
    func add(_ batch: [StoredEvent]) {
        for event in batch {
            guard let v = videoIndex[event.video] else { skipped += 1; continue }
            events += 1
            let viewer: Int32
            if let known = viewerIndex[event.actor] { viewer = known } else {
                viewer = Int32(viewerIndex.count)
                viewerIndex[event.actor] = viewer
            }
            let base = InteractionWeight.value(event.type, watchedMs: event.watchedMs, durationMs: event.durationMs)
            let age = now - event.at
            let vi = Int(v)
            switch event.type {
            case .impression: shown[vi] += 1
            case .watch:
                plays[vi] += 1
                watched[vi] += Float(min(InteractionWeight.ratio(watchedMs: event.watchedMs, durationMs: event.durationMs), 1.5))
            default: break
            }
            guard base != 0 else { continue }
            let key = UInt64(UInt32(bitPattern: viewer)) << 32 | UInt64(UInt32(bitPattern: v))
            pairs[key, default: 0] += base * InteractionWeight.decay(age: age, halfLife: halfLife)
            if base > 0, age < trendWindow { trend[vi] += base * InteractionWeight.decay(age: age, halfLife: trendHalfLife) }
        }
    }
}
