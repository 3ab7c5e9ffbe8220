import FeedTestSupport
import Foundation

/// The demo feed's fixtures as bytes and text, and text positions worked out apart from the
/// code under test. (`FormatFixture` holds one small file per format, `PeerData` the peer
/// teams' files.)
enum TestFiles {
    /// The bytes of `Fixtures/<name>`.
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: RepositoryFiles.fixture(name)))
    }

    /// The text of `Fixtures/<name>`.
    static func fixtureText(_ name: String) throws -> String {
        String(decoding: try fixture(name), as: UTF8.self)
    }

    /// 1-based line and column (in characters) of the first occurrence of `needle` in `text`,
    /// computed independently of the code under test.
    static func lineColumn(of needle: String, in text: String, last: Bool = false) -> (line: Int, column: Int)? {
        guard let range = text.range(of: needle, options: last ? .backwards : []) else { return nil }
        let before = text[..<range.lowerBound]
        let line = before.split(separator: "\n", omittingEmptySubsequences: false).count
        let column = (before.split(separator: "\n", omittingEmptySubsequences: false).last?.unicodeScalars.count ?? 0) + 1
        return (line, column)
    }
}
