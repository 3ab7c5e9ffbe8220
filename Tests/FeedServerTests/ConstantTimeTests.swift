@testable import FeedServer
@testable import FeedAccess
import FeedCore
import Testing

/// Token comparison: equal only for the same bytes, whatever the lengths.
@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test("same bytes are equal; a different byte, a prefix, an extension or a length off by 256 are not", arguments: [
        ("Bearer s3cret", "Bearer s3cret", true),
        ("Bearer s3cret", "Bearer s3creT", false),
        ("Bearer s3cret", "Bearer s3cre", false),
        ("Bearer s3cret", "Bearer s3cret!", false),
        ("", "", true),
        ("", "x", false),
        (String(repeating: "a", count: 256), "", false),
    ])
    func equal(a: String, b: String, same: Bool) {
        #expect(ConstantTime.equal(a.utf8, b.utf8) == same)
        #expect(ConstantTime.equal(b.utf8, a.utf8) == same)
    }
}
