/// How long requests took, counted into fixed buckets (seconds, upper bounds): Prometheus'
/// histogram, whose text form gives each bucket cumulatively with `le="…"`.
struct DurationHistogram: Sendable {
    /// The buckets' upper bounds in seconds, from a cached JSON answer (about a millisecond) to
    /// a clip streamed to a slow phone (a minute); everything longer falls in `+Inf` only.
    static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    /// Per bucket, the observations that fell in it and no lower one (not cumulative).
    private(set) var counts = [Int](repeating: 0, count: bounds.count)
    /// Every observation, `+Inf`'s count.
    private(set) var count = 0
    /// The observations' sum, seconds.
    private(set) var sum = 0.0

    /// Counts one request of `seconds`.
    mutating func observe(_ seconds: Double) {
        count += 1
        sum += seconds
        if let bucket = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[bucket] += 1 }
    }

    /// Per bound, the observations at or below it: the values of the `_bucket` lines.
    var cumulative: [Int] {
        var total = 0
        return counts.map { total += $0; return total }
    }
}
