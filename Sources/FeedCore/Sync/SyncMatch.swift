/// The best match in a cross-correlation and how clearly it beats the runner-up.
///
/// Each lag's value is divided by the square root of how many samples the two signals share at
/// that lag, so an unrelated pair scores about the same at every lag however much they overlap;
/// lags sharing less than ``SyncOptions/minimumOverlap`` are left out. Scores are averaged over
/// ±`smoothing` samples (about ±0.5 ms) before the peak is picked, so a peak smeared by two
/// clocks' drift still stands out; the offset is then the unsmoothed peak near it, refined
/// below one sample by a parabola through it and its neighbours.
struct SyncMatch {
    /// Lag of the best match in samples (fractional).
    var lag: Double
    /// The best smoothed score over the runner-up's (the best more than ``SyncOptions/runnerUpDistance`` away).
    var confidence: Double
    /// The lags that were compared (enough overlap), in samples.
    var searched: ClosedRange<Int>

    static let smoothing = 4
    /// Reported when nothing else scores at all (a single possible lag).
    static let maximumConfidence = 1000.0

    /// The match in `correlation` of a front of `frontCount` and a back of `backCount` samples;
    /// nil when no lag has enough overlap.
    init?(_ correlation: CrossCorrelation, frontCount: Int, backCount: Int, rate: Int) {
        let maxLag = correlation.maxLag
        let minimum = Int(SyncOptions.minimumOverlap * Double(rate))
        let first = max(-maxLag, minimum - frontCount), last = min(maxLag, backCount - minimum)
        guard first <= last else { return nil }
        var score = [Double](repeating: 0, count: 2 * maxLag + 1)
        for lag in first...last {
            let overlap = min(frontCount, backCount - lag) - max(0, -lag)
            score[lag + maxLag] = Double(abs(correlation.values[lag + maxLag])) / Double(overlap).squareRoot()
        }
        // Running mean over 2 * smoothing + 1 lags.
        var smooth = [Double](repeating: 0, count: score.count)
        var sum = 0.0
        let width = 2 * Self.smoothing + 1
        for i in 0..<(score.count + Self.smoothing) {
            if i < score.count { sum += score[i] }
            if i >= width { sum -= score[i - width] }
            let centre = i - Self.smoothing
            if centre >= 0 { smooth[centre] = sum / Double(width) }
        }
        var best = first + maxLag
        for i in (first + maxLag)...(last + maxLag) where smooth[i] > smooth[best] { best = i }
        let distance = Int(SyncOptions.runnerUpDistance * Double(rate))
        var runnerUp = 0.0
        for i in (first + maxLag)...(last + maxLag) where abs(i - best) > distance { runnerUp = max(runnerUp, smooth[i]) }
        confidence = runnerUp > 0 ? min(Self.maximumConfidence, smooth[best] / runnerUp) : smooth[best] > 0 ? Self.maximumConfidence : 1

        var peak = best
        for i in max(0, best - Self.smoothing)...min(score.count - 1, best + Self.smoothing) where score[i] > score[peak] { peak = i }
        var fraction = 0.0
        if peak > 0 && peak < score.count - 1 {
            let (left, centre, right) = (score[peak - 1], score[peak], score[peak + 1])
            let curvature = left - 2 * centre + right
            if curvature < 0 { fraction = max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) }
        }
        lag = Double(peak - maxLag) + fraction
        searched = first...last
    }
}
