import Foundation
import Hummingbird

extension Parameters {
    /// Path parameter `name`, percent-decoded (RFC 3986 §2.1): the links feed writes encode a
    /// feed id such as `café` or `a+b` (`caf%C3%A9`, `a%2Bb`), and any client may encode any
    /// character (`%31` is `1`), so a route finds the id the link was made from.
    /// - Throws: ``RequestFailure/usage(_:)`` (400) for a `%` not followed by two hex digits, or
    ///   bytes that are not UTF-8.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard raw.contains("%") else { return raw }
        guard let text = raw.removingPercentEncoding else {
            throw RequestFailure.usage("\(raw): not a valid percent-encoded path segment")
        }
        return text
    }
}
