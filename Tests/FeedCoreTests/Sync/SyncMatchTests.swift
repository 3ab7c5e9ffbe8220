import Testing
@testable import FeedCore

/// `SyncMatch` on signals whose offset is known: the peak, its refinement and the range searched.
@Suite("SyncMatch")
struct SyncMatchTests {
    @Test("PHAT: a copy of the front 1234 samples later in the back, under louder noise, peaks at lag +1234")
    func phatPeak() throws {
        let sound = CrossCorrelationTests.noise(40000, seed: 3), hiss = CrossCorrelationTests.noise(42000, seed: 4)
        let front = Array(sound[0..<30000])
        let back = (0..<40000).map { t in (t >= 1234 && t - 1234 < sound.count ? 0.3 * sound[t - 1234] : 0) + hiss[t] }
        let match = try #require(try SyncMatch(front: front, back: back, maxLag: 8000, rate: 8000, path: "test"))
        #expect(abs(match.lag - 1234) < 0.5)
        #expect(match.confidence > SyncOptions.defaultMinConfidence)
        #expect(match.searched == -8000...8000)
    }

    @Test("a front longer than one block: every block agrees on the lag; a shorter tail joins the last block")
    func severalBlocks() throws {
        let sound = CrossCorrelationTests.noise(200_000, seed: 5), hiss = CrossCorrelationTests.noise(200_000, seed: 6)
        let front = Array(sound[2000..<(2000 + 170_000)])          // 21.25 s at 8 kHz: blocks of 10 s and 11.25 s
        let back = (0..<190_000).map { t in 0.5 * sound[t] + hiss[t] }
        let match = try #require(try SyncMatch(front: front, back: back, maxLag: 16000, rate: 8000, path: "test"))
        #expect(abs(match.lag - 2000) < 0.5)
        #expect(match.confidence > 10)
    }
}
