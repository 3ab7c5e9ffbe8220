import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// Hostile JSON text through the public loader: each input fails with one clear located
/// error (or loads correctly), never a crash, a hang or a message that quotes megabytes.
@Suite("Hostile JSON", .offThePool)
struct HostileJSONTests {
    /// The first error `load` throws for `bytes`, checked against `validate`'s first error.
    static func failure(_ bytes: [UInt8], format: FeedFormat? = nil) -> FeedProblem? {
        do {
            _ = try FeedLoader.load(bytes: bytes, source: "hostile.json", format: format)
            return nil
        } catch {
            guard case .invalid(let problem) = error else { return nil }
            #expect(FeedLoader.validate(bytes: bytes, source: "hostile.json", format: format).first { $0.severity == .error } != nil)
            #expect(!problem.description.contains("\n"))
            return problem
        }
    }

    /// A one-video LIVEr feed with `field` set to the raw JSON `value`.
    static func video(_ field: String, _ value: String) -> [UInt8] {
        Array(#"{"videos":[{"id":1,"username":"u","video":"https://example.com/1.mp4","#.utf8)
            + Array("\"\(field)\":\(value)}]}".utf8)
    }

    @Test(arguments: ["[", "{\"a\":"])
    func nesting100000LevelsDeepStopsAtTheCap(opener: String) async throws {
        // Given 100,000 nested containers (closed, so the text is otherwise valid JSON).
        let depth = 100_000
        let closer = opener == "[" ? "]" : "}"
        let text = String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth)

        let problem = try #require(await offThePool { Self.failure(Array(text.utf8)) })

        #expect(problem.message == "nesting deeper than \(JSONParser.maxDepth) levels")
        #expect(problem.line == 1)
        #expect(problem.column == JSONParser.maxDepth * opener.unicodeScalars.count + 1)
    }

    @Test func unclosedDeepNestingFailsTheSameWay() async throws {
        let problem = try #require(await offThePool { Self.failure(Array(repeating: UInt8(ascii: "["), count: 100_000)) })
        #expect(problem.message == "nesting deeper than \(JSONParser.maxDepth) levels")
    }

    @Test(arguments: [
        ([0xFF], "invalid UTF-8 byte 0xFF in a string"),
        ([0xC0, 0x80], "invalid UTF-8 byte 0xC0 in a string"),          // overlong NUL
        ([0xED, 0xA0, 0x80], "invalid UTF-8 byte 0xA0 in a string"),    // encoded surrogate
        ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8 byte 0x90 in a string"),  // beyond U+10FFFF
        ([0xE2, 0x82], "invalid UTF-8 byte 0x22 in a string"),          // cut by the closing quote
    ] as [([UInt8], String)])
    func invalidUTF8InAStringIsLocated(sequence: [UInt8], message: String) throws {
        let bytes = Array(#"{"videos":[{"id":1,"username":"ab"#.utf8) + sequence + Array(#"","video":"https://e.com/1"}]}"#.utf8)

        let problem = try #require(Self.failure(bytes))

        #expect(problem.message == message)
        #expect(problem.line == 1)
    }

    @Test func invalidUTF8OutsideStringsIsLocated() throws {
        let problem = try #require(Self.failure([0x7B, 0x0A, 0xFF, 0xFE, 0x7D]))
        #expect(problem.message == "unexpected byte 0xFF: expected a member name in double quotes")
        #expect((problem.line, problem.column) == (2, 1))
    }

    @Test func utf16TextIsRefusedAtTheFirstByte() throws {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("{}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let problem = try #require(Self.failure(utf16))
        #expect(problem.message == "unexpected byte 0xFF: expected a value")
        #expect((problem.line, problem.column) == (1, 1))
    }

    @Test func aByteOrderMarkIsSkippedAndNotCounted() throws {
        let plain = Self.video("likes", "3")
        let withBOM = [0xEF, 0xBB, 0xBF] + plain
        let feed = try FeedLoader.load(bytes: withBOM, source: "bom.json")
        #expect(feed.videos == (try FeedLoader.load(bytes: plain, source: "bom.json")).videos)

        // A problem after the mark is located as if it were not there.
        let bad = [0xEF, 0xBB, 0xBF] + Self.video("likes", "-3")
        let problem = try #require(Self.failure(bad))
        let column = try #require(TestFiles.lineColumn(of: "-3", in: String(decoding: Self.video("likes", "-3"), as: UTF8.self))).column
        #expect((problem.line, problem.column) == (1, column))
    }

    @Test func aSecondByteOrderMarkIsAnError() throws {
        let problem = try #require(Self.failure([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Self.video("likes", "3")))
        #expect(problem.message == "unexpected byte 0xEF: expected a value")
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "99999999999999999999999"])
    func integersBeyondInt64AreRefused(number: String) throws {
        let problem = try #require(Self.failure(Self.video("likes", number)))
        #expect(problem.message == "number \(number) is beyond the 64-bit integer range")
    }

    @Test func aMillionDigitNumberGivesAShortMessage() async throws {
        let digits = String(repeating: "9", count: 1_000_000)

        let problem = try #require(await offThePool { Self.failure(Self.video("likes", digits)) })

        #expect(problem.message == "number \(digits.prefix(40))… (1000000 characters) is beyond the 64-bit integer range")
    }

    @Test(arguments: ["1e999", "-1e999", "1" + String(repeating: "0", count: 400) + ".5"])
    func doublesBeyondTheRangeAreRefusedBriefly(number: String) throws {
        let problem = try #require(Self.failure(Self.video("duration", number)))
        let shown = number.count > 40 ? number.prefix(40) + "…" : Substring(number)
        #expect(problem.message == "number \(shown) is beyond the range of a double")
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "nan", "+1", ".5", "0x10"])
    func nonJSONNumberLiteralsAreRefused(literal: String) throws {
        let problem = try #require(Self.failure(Self.video("duration", literal)))
        #expect(problem.path == "")
        #expect(problem.message.hasPrefix(literal.hasPrefix("-") ? "invalid number" : "unexpected '"))
    }

    @Test func zeroBytesAndOnlyWhitespaceSayWhichTheyAre() throws {
        let empty = try #require(Self.failure([]))
        #expect(empty.message == "empty input: expected a JSON value")
        #expect((empty.line, empty.column) == (1, 1))

        let blank = try #require(Self.failure(Array(" \n\t\r\n  ".utf8)))
        #expect(blank.message == "input holds only whitespace: expected a JSON value")
        #expect(blank.line == 3)

        let markOnly = try #require(Self.failure([0xEF, 0xBB, 0xBF]))
        #expect(markOnly.message == "input holds only whitespace: expected a JSON value")
    }

    @Test func nulAndControlBytesInAStringAreRefused() throws {
        let bytes = Array(#"{"videos":[{"id":1,"username":"a"#.utf8) + [0x00] + Array(#"b","video":"https://e.com/1"}]}"#.utf8)
        let problem = try #require(Self.failure(bytes))
        #expect(problem.message == "control character U+0000 in a string: write it as an escape")
    }
}
