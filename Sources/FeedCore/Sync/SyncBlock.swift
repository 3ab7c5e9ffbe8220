/// One stretch of the front compared with the back at every lag: GCC-PHAT scores in units of
/// the block's own noise, so a block where the clips share sound stands out and one where they
/// do not (a pause, a cough on one side) adds only noise.
///
/// Comparing the front block by block instead of as a whole keeps two clocks' drift from
/// smearing the peak: over 10 s a 50 ppm drift moves it 0.5 ms (4 samples at 8 kHz), over 90 s 4.5 ms.
struct SyncBlock {
    /// |correlation| / sqrt(overlap) at lag `k` in `scores[k + maxLag]`, divided by its RMS over
    /// the valid lags; 0 where the block and the back share less than ``SyncOptions/minimumOverlap``.
    var scores: [Double]
    /// The valid lags.
    var lags: ClosedRange<Int>

    /// The block `front[start..<start + length]` against `back`, lags `-maxLag...maxLag`; nil
    /// when no lag leaves enough overlap or the block is silent.
    init?(front: [Float], back: [Float], start: Int, length: Int, maxLag: Int, rate: Int, path: String) throws(SyncError) {
        let minimum = min(length, Int(SyncOptions.minimumOverlap * Double(rate)))
        // The back's samples any lag can reach: start - maxLag ..< start + length + maxLag.
        let from = max(0, start - maxLag), to = min(back.count, start + length + maxLag)
        guard to - from >= minimum else { return nil }
        let shift = start - from                         // block lag k is lag k + shift against the slice
        let correlation = try CrossCorrelation(front: Array(front[start..<(start + length)]), back: Array(back[from..<to]),
                                               maxLag: maxLag + shift, path: path)
        // Lags at which at least `minimum` front samples meet the back.
        let lowest = max(-maxLag, from - start - length + minimum), last = min(maxLag, to - start - minimum)
        guard lowest <= last else { return nil }
        var scores = [Double](repeating: 0, count: 2 * maxLag + 1)
        var energy = 0.0
        for lag in lowest...last {
            // Front samples t in 0..<length meet back samples start + t + lag inside the slice.
            let overlap = min(length, to - start - lag) - max(0, from - start - lag)
            let value = Double(abs(correlation.values[lag + shift + correlation.maxLag])) / Double(overlap).squareRoot()
            scores[lag + maxLag] = value
            energy += value * value
        }
        let rms = (energy / Double(last - lowest + 1)).squareRoot()
        guard rms > 0 else { return nil }
        for i in (lowest + maxLag)...(last + maxLag) { scores[i] /= rms }
        self.scores = scores
        self.lags = lowest...last
    }
}
