import Foundation
import Testing
@testable import FeedCore

@Suite struct FeedIDTests {
    @Test(arguments: [
        ("1235", FeedID.int(1235)), ("-4", .int(-4)), ("DJDphyX", .string("DJDphyX")),
        ("007", .string("007")), ("+5", .string("+5")), ("", .string("")),
        ("99999999999999999999", .string("99999999999999999999")),
    ])
    func parsesCanonicalIntegersOnly(text: String, id: FeedID) {
        #expect(FeedID(parsing: text) == id)
        #expect(FeedID(parsing: text).description == text)
    }

    @Test func sortsIntegersBeforeStrings() {
        let ids: [FeedID] = [.string("b"), .int(10), .string("a"), .int(9)]
        #expect(ids.sorted() == [.int(9), .int(10), .string("a"), .string("b")])
    }

    @Test func codableUsesNumbersAndStrings() throws {
        let data = try JSONEncoder().encode([FeedID.int(5), .string("x")])
        #expect(String(decoding: data, as: UTF8.self) == #"[5,"x"]"#)
        #expect(try JSONDecoder().decode([FeedID].self, from: data) == [.int(5), .string("x")])
    }
}
