import CSignal

/// GCC-PHAT of two signals: each frequency's cross-spectrum divided by its magnitude, so every
/// frequency in ``SyncOptions/band`` counts the same whatever the microphones' EQ and gain, and
/// the match shows as one sharp peak even in an echoing room. Computed by `cs_correlate`
/// (FFTW).
struct CrossCorrelation {
    /// `values[lag + maxLag]` for lag `-maxLag...maxLag` samples: how well the back at `t + lag`
    /// matches the front at `t`.
    var values: [Float]
    var maxLag: Int

    /// `path` names the pair in an error (memory runs out).
    init(front: [Float], back: [Float], maxLag: Int, path: String) throws(SyncError) {
        var options = cs_correlate_options()
        options.weighting = 1
        options.low = SyncOptions.band.lowerBound / Double(SyncOptions.sampleRate)
        options.high = SyncOptions.band.upperBound / Double(SyncOptions.sampleRate)
        var values = [Float](repeating: 0, count: 2 * maxLag + 1)
        let code = values.withUnsafeMutableBufferPointer { out in
            front.withUnsafeBufferPointer { a in
                back.withUnsafeBufferPointer { b in
                    cs_correlate(a.baseAddress, Int32(a.count), b.baseAddress, Int32(b.count), Int32(maxLag), &options, out.baseAddress)
                }
            }
        }
        if code < 0 { throw .correlationFailed(path: path) }
        self.values = values
        self.maxLag = maxLag
    }
}
