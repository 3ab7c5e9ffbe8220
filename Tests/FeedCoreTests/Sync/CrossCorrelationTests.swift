import CSignal
import FeedTestSupport
import Testing
@testable import FeedCore

/// `cs_correlate` (FFTW) against a direct sum; its arguments checked.
@Suite("CrossCorrelation", .offThePool)
struct CrossCorrelationTests {
    /// A reproducible signal in [-1, 1] (also used by SyncMatchTests).
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
    }

    @Test("unweighted, full band: the FFT gives sum of a[t] * b[t + lag] for every lag, zeros beyond reach")
    func matchesDirectSum() throws {
        let a = Self.noise(300, seed: 1), b = Self.noise(200, seed: 2)
        let maxLag = 350
        var options = cs_correlate_options(weighting: 0, low: 0, high: 0.5)
        var out = [Float](repeating: .nan, count: 2 * maxLag + 1)
        let code = cs_correlate(a, Int32(a.count), b, Int32(b.count), Int32(maxLag), &options, &out)
        #expect(code == 0)
        for lag in -maxLag...maxLag {
            var sum: Float = 0
            for t in 0..<a.count where t + lag >= 0 && t + lag < b.count { sum += a[t] * b[t + lag] }
            #expect(abs(out[lag + maxLag] - sum) < 1e-3, "lag \(lag)")
        }
    }

    @Test("bad arguments are refused", arguments: [(0, 10, 0.0, 0.5, 1.0), (10, 10, 0.3, 0.2, 1.0), (10, 10, 0.0, 0.6, 1.0), (10, 10, 0.0, 0.5, 2.0)])
    func badArguments(count: Int, maxLag: Int, low: Double, high: Double, weighting: Double) {
        let a = [Float](repeating: 1, count: 10)
        var options = cs_correlate_options(weighting: weighting, low: low, high: high)
        var out = [Float](repeating: 0, count: 2 * maxLag + 1)
        #expect(cs_correlate(a, Int32(count), a, 10, Int32(maxLag), &options, &out) == CS_ERR_ARGUMENT)
    }
}
