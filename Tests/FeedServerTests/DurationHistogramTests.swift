import Testing
@testable import FeedServer

/// The duration buckets of `/metrics`: cumulative, their bounds inclusive.
@Suite("DurationHistogram")
struct DurationHistogramTests {
    @Test("cumulative buckets with inclusive bounds; past the last bound only +Inf counts; the sum is exact")
    func buckets() {
        var histogram = DurationHistogram()
        for seconds in [0.001, 0.0011, 0.3, 61] { histogram.observe(seconds) }
        let cumulative = histogram.cumulative
        #expect(cumulative.first == 1, "a bound is inclusive: 0.001 s is in le=0.001")
        #expect(cumulative[DurationHistogram.bounds.firstIndex(of: 0.0025)!] == 2)
        #expect(cumulative[DurationHistogram.bounds.firstIndex(of: 0.5)!] == 3)
        #expect(cumulative.last == 3 && histogram.count == 4, "61 s is past the last bound: +Inf only")
        #expect(abs(histogram.sum - 61.3021) < 1e-9)
    }
}
