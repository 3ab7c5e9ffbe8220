/// The best offset over all the front's blocks and how clearly it beats the runner-up.
///
/// The front is cut into blocks of ``blockSeconds``, each compared with the back at every lag
/// (``SyncBlock``). Each block's scores are widened to their maximum over ±``drift`` samples
/// (so the blocks' peaks still meet when two clocks drift apart by up to about 60 ppm) and
/// centred on their mean, then summed: a lag where many blocks peak stands out, noise stays
/// near zero. The confidence is the best sum over the runner-up's, the best more than
/// ``SyncOptions/runnerUpDistance`` away. The offset is the blocks' own peaks near the best lag,
/// each refined below one sample (``vertex(_:at:)``), averaged with their heights as weights: with
/// drift, the offset in the middle of the compared stretch.
struct SyncMatch {
    /// Lag of the match in samples (fractional).
    var lag: Double
    /// The best summed score over the runner-up's.
    var confidence: Double
    /// The lags compared, in samples.
    var searched: ClosedRange<Int>

    /// Length of a block of the front, seconds.
    static let blockSeconds = 10.0
    /// Half-width of the window (samples) over which a block's peak may have moved: 3 ms at 8 kHz.
    static let drift = 24
    /// Reported when every other offset scores below the noise.
    static let maximumConfidence = 1000.0

    /// The match of `front` against `back` over lags `-maxLag...maxLag`; nil when no lag leaves
    /// enough overlap.
    init?(front: [Float], back: [Float], maxLag: Int, rate: Int, path: String) throws(SyncError) {
        let blockLength = Int(Self.blockSeconds * Double(rate)), minimum = Int(SyncOptions.minimumOverlap * Double(rate))
        var blocks: [SyncBlock] = []
        var start = 0
        while start < front.count {
            // A short tail joins the block before it.
            let length = front.count - start < blockLength + minimum ? front.count - start : blockLength
            if let block = try SyncBlock(front: front, back: back, start: start, length: length, maxLag: maxLag, rate: rate, path: path) {
                blocks.append(block)
            }
            start += length
        }
        guard let first = blocks.map(\.lags.lowerBound).min(), let last = blocks.map(\.lags.upperBound).max() else { return nil }

        var total = [Double](repeating: 0, count: 2 * maxLag + 1)
        for block in blocks {
            let widened = Self.widened(block.scores, over: block.lags, maxLag: maxLag)
            let range = (block.lags.lowerBound + maxLag)...(block.lags.upperBound + maxLag)
            let mean = widened[range].reduce(0, +) / Double(range.count)
            for i in range { total[i] += widened[i] - mean }
        }
        var best = first + maxLag
        for i in (first + maxLag)...(last + maxLag) where total[i] > total[best] { best = i }
        let distance = Int(SyncOptions.runnerUpDistance * Double(rate))
        var runnerUp = -Double.infinity
        for i in (first + maxLag)...(last + maxLag) where abs(i - best) > distance { runnerUp = max(runnerUp, total[i]) }
        if total[best] <= 0 || runnerUp == -.infinity {
            confidence = 1                                  // nothing stands out, or nothing to compare with
        } else if runnerUp <= 0 {
            confidence = Self.maximumConfidence
        } else {
            confidence = min(Self.maximumConfidence, total[best] / runnerUp)
        }

        // Each block's own peak near the best lag, weighted by how far it rises above the block's noise.
        var weighted = 0.0, weights = 0.0
        for block in blocks where block.lags.contains(best - maxLag) {
            let low = max(block.lags.lowerBound + maxLag, best - Self.drift), high = min(block.lags.upperBound + maxLag, best + Self.drift)
            var peak = low
            for i in low...high where block.scores[i] > block.scores[peak] { peak = i }
            let weight = max(0, block.scores[peak] - 3)        // scores are in RMS units; noise rarely tops 3 near a given lag
            guard weight > 0 else { continue }
            weighted += weight * (Double(peak - maxLag) + Self.vertex(block.scores, at: peak))
            weights += weight
        }
        lag = weights > 0 ? weighted / weights : Double(best - maxLag)
        searched = first...last
    }

    /// The running maximum of `scores` over ±``drift`` lags, within `lags`.
    private static func widened(_ scores: [Double], over lags: ClosedRange<Int>, maxLag: Int) -> [Double] {
        var out = [Double](repeating: 0, count: scores.count)
        let low = lags.lowerBound + maxLag, high = lags.upperBound + maxLag
        // A monotonic deque of indices gives each window's maximum in one pass.
        var window: [Int] = [], head = 0
        var next = low
        for centre in low...high {
            while next <= min(high, centre + drift) {
                while window.count > head && scores[window[window.count - 1]] <= scores[next] { window.removeLast() }
                window.append(next)
                next += 1
            }
            while window[head] < centre - drift { head += 1 }
            out[centre] = scores[window[head]]
        }
        return out
    }

    /// Where the peak at `i` lies between samples, relative to `i` (within ±0.5). A GCC-PHAT peak
    /// over nearly the whole band is a sinc, |sin(pi (k - d)) / (pi (k - d))|, for which the higher
    /// neighbour h gives d = h / (peak + h) exactly; a parabola through the three points would
    /// pull d towards the nearer sample.
    private static func vertex(_ scores: [Double], at i: Int) -> Double {
        guard i > 0 && i < scores.count - 1 else { return 0 }
        let (left, centre, right) = (scores[i - 1], scores[i], scores[i + 1])
        guard centre > 0 else { return 0 }
        return right >= left ? min(0.5, right / (centre + right)) : -min(0.5, left / (centre + left))
    }
}
