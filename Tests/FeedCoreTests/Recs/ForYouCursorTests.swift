import Testing
@testable import FeedRecs

/// ``ForYouCursor``: a session's seed and served ids, as `next_cursor` carries them.
@Suite("ForYouCursor")
struct ForYouCursorTests {
    @Test("a cursor reads back as written, its ids as a set, at most the newest 400")
    func roundTrip() throws {
        let cursor = ForYouCursor(seed: 0xDEAD_BEEF).after([1_000_000_000_009, 1_000_000_000_003, 42]).after([1_000_000_000_100])
        let text = cursor.text
        #expect(text.hasPrefix("fy1.deadbeef."))
        let read = try ForYouCursor(text: text)
        #expect(read.seed == 0xDEAD_BEEF)
        #expect(read.served == [42, 1_000_000_000_003, 1_000_000_000_009, 1_000_000_000_100])
        let long = ForYouCursor(seed: 1, served: (1...1000).map { Int64($0) })
        #expect(long.served.count == ForYouCursor.maxServed && long.served.first == 601)
        #expect(try ForYouCursor(text: long.text).served.count == ForYouCursor.maxServed)
        #expect(long.text.count < 700, "small deltas take a byte each")
    }

    @Test("text this server did not write is refused", arguments: ["", "p123", "fy1.zz.AA", "fy2.1.AA", "fy1.1.gA", "fy1.1.*"])
    func refused(text: String) {
        #expect(throws: RecsError.invalidCursor(text)) { try ForYouCursor(text: text) }
    }
}
