import FeedTestSupport
import Testing
import FeedCore

@Suite("FrameRate", .offThePool)
struct FrameRateTests {
    static let near: [(Double, Double)] = [
        (29.8, 30000.0 / 1001), (30.4, 30.0), (29.1, 30000.0 / 1001), (23.9, 24000.0 / 1001), (24.3, 24.0),
        (25.6, 25.0), (49.0, 50.0), (59.7, 60000.0 / 1001), (60.0, 60.0), (50.0, 50.0),
    ]

    @Test("rates within 3 % of a standard one snap to it", arguments: near)
    func snaps(_ nominal: Double, _ expected: Double) {
        #expect(Swift.abs(FrameRate.standard(nominal) - expected) < 1e-9, "\(nominal)")
    }

    @Test("above 60 gives 60; an unknown rate gives 30")
    func bounds() {
        #expect(FrameRate.standard(120) == 60)
        #expect(FrameRate.standard(240) == 60)
        #expect(FrameRate.standard(0) == 30)
        #expect(FrameRate.standard(-1) == 30)
        #expect(FrameRate.standard(.nan) == 30)
    }

    @Test("a rate far from every standard one is kept (to the thousandth), never raised to repeat frames")
    func keeps() {
        #expect(FrameRate.standard(15) == 15)
        #expect(FrameRate.standard(12.0004) == 12)
        #expect(FrameRate.standard(40) == 40)
        #expect(FrameRate.standard(27.02) == 27.02, "an average is not a nominal rate: snapping it would guess")
    }
}
