import Testing
@testable import FeedCore

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONError) -> JSONDocument {
        try JSONParser.parse(Array(text.utf8))
    }

    private func failure(_ text: String) -> JSONError? {
        failure(Array(text.utf8))
    }

    private func failure(_ bytes: [UInt8]) -> JSONError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsScalarsAndContainersWithOffsets() throws {
        // Given a document with every kind of value
        let text = #"{"a": [1, -2.5e3, "x\ny", true, false, null], "b": {}}"#
        // When parsed
        let document = try parse(text)
        // Then the tape holds them in order with their offsets
        let a = try #require(document.member("a", of: document.root))
        let items = document.elements(of: a)
        #expect(items.map { document.kind($0) } == [.int, .double, .escapedString, .true, .false, .null])
        #expect(document.int64(items[0]) == 1)
        #expect(document.double(items[1]) == -2500)
        #expect(document.string(items[2]) == "x\ny")
        let quote = try #require(text.range(of: #""x\n"#)).lowerBound
        #expect(document.offset(items[2]) == text.utf8.distance(from: text.startIndex, to: quote))
        let b = try #require(document.member("b", of: document.root))
        #expect(document.kind(b) == .object)
        #expect(document.elements(of: b).isEmpty)
        #expect(document.member("c", of: document.root) == nil)
    }

    @Test func acceptsTrailingCommasAndBOM() throws {
        let document = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"v": [1, 2,], "w": {"x": 1,},}"#.utf8))
        let v = try #require(document.member("v", of: document.root))
        #expect(document.elements(of: v).map { document.int64($0) } == [1, 2])
        #expect(failure("[1,,]")?.message == "unexpected ',': expected a value")
        #expect(failure("[,]") != nil)
    }

    @Test func unescapesUnicodeAndSurrogatePairs() throws {
        let document = try parse(#"["caf\u00e9 \ud83c\udf2e \"q\" \\ \/ \t", "ünï 🌮"]"#)
        let items = document.elements(of: document.root)
        #expect(document.string(items[0]) == "café 🌮 \"q\" \\ / \t")
        #expect(document.string(items[1]) == "ünï 🌮")
    }

    @Test(arguments: [
        ("{\"a\": 1", "unexpected end of input: expected ',' or '}'", 7),
        ("{\"a\" 1}", "unexpected '1': expected ':' after a member name", 5),
        ("[1 2]", "unexpected '2': expected ',' or ']' after an array element", 3),
        ("{a: 1}", "unexpected 'a': expected a member name in double quotes", 1),
        ("[tru]", "unexpected 't': expected a value", 1),
        ("[01]", "invalid number: leading zeros are not allowed", 1),
        ("[1.]", "invalid number: expected a digit after '.'", 1),
        ("[\"a\\x\"]", "invalid escape '\\x' in a string", 3),
        ("[\"\\u12G4\"]", "invalid \\u escape: expected 4 hex digits", 2),
        ("[\"\\udc00\"]", "invalid \\u escape: lone low surrogate", 2),
        ("[\"tab\there\"]", "control character U+0009 in a string: write it as an escape", 5),
        ("[\"open", "unterminated string", 1),
        ("[1] x", "unexpected 'x': expected the end of input after the JSON value", 4),
        ("", "empty input: expected a JSON value", 0),
        ("[9223372036854775808]", "number 9223372036854775808 is beyond the 64-bit integer range", 1),
        ("[-9223372036854775809]", "number -9223372036854775809 is beyond the 64-bit integer range", 1),
    ])
    func rejectsInvalidJSONAtTheOffendingByte(text: String, message: String, offset: Int) {
        let error = failure(text)
        #expect(error?.message == message)
        #expect(error?.offset == offset)
    }

    @Test func acceptsInt64Extremes() throws {
        let document = try parse("[9223372036854775807, -9223372036854775808]")
        #expect(document.elements(of: document.root).map { document.int64($0) } == [Int64.max, Int64.min])
    }

    @Test func rejectsInvalidUTF8() {
        let error = failure([UInt8(ascii: "["), UInt8(ascii: "\""), 0x61, 0xFF, UInt8(ascii: "\""), UInt8(ascii: "]")])
        #expect(error == JSONError(offset: 3, message: "invalid UTF-8 byte 0xFF in a string"))
        // An overlong encoding of '/' and a UTF-16 surrogate encoded in UTF-8 are invalid too.
        #expect(failure([0x22, 0xC0, 0xAF, 0x22])?.offset == 1)
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22])?.message == "invalid UTF-8 byte 0xA0 in a string")
    }

    @Test func capsNestingWithoutOverflowingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(failure(deep))
        #expect(error.message == "nesting deeper than 512 levels")
        #expect(error.offset == 512)
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(failure(ok) == nil)
    }
}
