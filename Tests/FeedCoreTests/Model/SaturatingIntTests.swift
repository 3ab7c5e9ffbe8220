import Testing
@testable import FeedCore

/// Numbers from outside that no Int holds: clamped, never a stopped process.
@Suite("Int(saturating:) and ids past Int64")
struct SaturatingIntTests {
    @Test("a Double past Int's range is Int.max or Int.min, NaN 0, the rest rounded toward zero")
    func saturating() {
        #expect(Int(saturating: 1e300) == .max && Int(saturating: .infinity) == .max)
        #expect(Int(saturating: -1e300) == .min && Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: 9_223_372_036_854_775_807.0) == .max)  // 2^63 as a Double
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 12.9) == 12 && Int(saturating: -12.9) == -12)
    }

    @Test("a feed whose comment ids reach Int64.max: posted comments get posted-N ids, not an overflow")
    func commentIDsPastInt64() {
        let feed = [Comment(id: .int(.max), username: "a", comment: "hi")]
        let merged = Comment.merged(feed, stored: [(number: 1, username: "bob", text: "hello")])
        #expect(merged.map(\.id) == [.int(.max), .string("posted-1")])
        #expect(Comment.stored((number: 2, username: "b", text: "x"), base: 10).id == .int(12))
    }
}
