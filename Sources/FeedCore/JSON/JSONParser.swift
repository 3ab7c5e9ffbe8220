/// The strict JSON parser behind every feed format, with two tolerances real feeds need:
/// trailing commas in arrays and objects, and a leading UTF-8 byte-order mark.
///
/// It walks the bytes once, without recursion (nesting is capped at ``maxDepth``), checks
/// UTF-8 and escapes inside strings, rejects integers beyond `Int64`, and writes a flat tape
/// of ``JSONNode``s that keep each value's byte offset.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var nodes: [JSONNode] = []
    private var open: [Int] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `bytes` into a document, or says what is wrong and where.
    static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONDocument {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONError(offset: 0, message: "input larger than 4 GiB")
        }
        let result: Result<[JSONNode], JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONError) {
                try parser.run()
                return .success(parser.nodes)
            } catch {
                return .failure(error)
            }
        }
        return JSONDocument(bytes: bytes, nodes: try result.get())
    }

    // MARK: - Structure

    private mutating func run() throws(JSONError) {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        nodes.reserveCapacity(count / 16 + 4)
        value: while true {
            skipWhitespace()
            guard index < count else {
                let message = !nodes.isEmpty ? "unexpected end of input: expected a value"
                    : count == 0 ? "empty input: expected a JSON value"
                    : "input holds only whitespace: expected a JSON value"
                throw JSONError(offset: index, message: message)
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < Self.maxDepth else {
                    throw JSONError(offset: index, message: "nesting deeper than \(Self.maxDepth) levels")
                }
                let kind: JSONKind = byte == UInt8(ascii: "{") ? .object : .array
                open.append(nodes.count)
                nodes.append(JSONNode(kind: kind, offset: UInt32(index), length: 0, end: 0))
                index += 1
                skipWhitespace()
                if index < count, bytes[index] == byte + 2 {  // '}' is '{' + 2, ']' is '[' + 2
                    index += 1
                    close()
                } else {
                    nodes[nodes.count - 1].length = 1
                    if kind == .object { try memberName() }
                    continue value
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true", .true)
            case UInt8(ascii: "f"): try literal("false", .false)
            case UInt8(ascii: "n"): try literal("null", .null)
            default: throw unexpected("expected a value")
            }
            // A value is complete: close containers or move on to the next element.
            while let top = open.last {
                skipWhitespace()
                let isObject = nodes[top].kind == .object
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard index < count else {
                    throw JSONError(offset: index, message: "unexpected end of input: expected ',' or '\(Character(Unicode.Scalar(closer)))'")
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if index < count, bytes[index] == closer {  // trailing comma
                        index += 1
                        close()
                        continue
                    }
                    nodes[top].length += 1
                    if isObject { try memberName() }
                    continue value
                } else if byte == closer {
                    index += 1
                    close()
                } else {
                    throw unexpected(isObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
                }
            }
            break
        }
        skipWhitespace()
        if index < count { throw unexpected("expected the end of input after the JSON value") }
    }

    private mutating func close() {
        let top = open.removeLast()
        nodes[top].end = UInt32(nodes.count)
    }

    private mutating func memberName() throws(JSONError) {
        guard index < bytes.count else {
            throw JSONError(offset: index, message: "unexpected end of input: expected a member name")
        }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected("expected a member name in double quotes") }
        try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw index < bytes.count ? unexpected("expected ':' after a member name")
                : JSONError(offset: index, message: "unexpected end of input: expected ':'")
        }
        index += 1
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func unexpected(_ expectation: String) -> JSONError {
        let byte = bytes[index]
        let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
        return JSONError(offset: index, message: "unexpected \(shown): \(expectation)")
    }

    // MARK: - Scalars

    private mutating func literal(_ word: StaticString, _ kind: JSONKind) throws(JSONError) {
        let length = word.utf8CodeUnitCount
        let start = index
        guard bytes.count - start >= length else { throw unexpected("expected a value") }
        for offset in 0..<length where bytes[start + offset] != word.utf8Start[offset] {
            throw unexpected("expected a value")
        }
        nodes.append(JSONNode(kind: kind, offset: UInt32(start), length: UInt32(length), end: UInt32(nodes.count + 1)))
        index += length
    }

    private mutating func string() throws(JSONError) {
        let start = index
        let count = bytes.count
        var escaped = false
        index += 1
        while true {
            // Fast path: plain ASCII.
            while index < count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { break }
                index += 1
            }
            guard index < count else { throw JSONError(offset: start, message: "unterminated string") }
            let byte = bytes[index]
            if byte == 0x22 { break }
            if byte == 0x5C {
                escaped = true
                try escape()
            } else if byte < 0x20 {
                throw JSONError(offset: index, message: "control character U+00\(hex(byte)) in a string: write it as an escape")
            } else {
                try utf8Sequence()
            }
        }
        nodes.append(JSONNode(
            kind: escaped ? .escapedString : .string, offset: UInt32(start),
            length: UInt32(index - start - 1), end: UInt32(nodes.count + 1)))
        index += 1
    }

    private mutating func escape() throws(JSONError) {
        let start = index
        guard index + 1 < bytes.count else { throw JSONError(offset: start, message: "unterminated string") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: index + 2, escapeStart: start)
            index += 6
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == UInt8(ascii: "u"),
                      case let low = try hexQuad(at: index + 2, escapeStart: index), (0xDC00...0xDFFF).contains(low)
                else {
                    throw JSONError(offset: start, message: "invalid \\u escape: high surrogate not followed by a low surrogate")
                }
                index += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONError(offset: start, message: "invalid \\u escape: lone low surrogate")
            }
        default:
            let byte = bytes[index + 1]
            let shown = (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "0x\(hex(byte))"
            throw JSONError(offset: start, message: "invalid escape '\\\(shown)' in a string")
        }
    }

    private func hexQuad(at position: Int, escapeStart: Int) throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else {
            throw JSONError(offset: escapeStart, message: "invalid \\u escape: expected 4 hex digits")
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONDocument.hexValue(bytes[position + offset]) else {
                throw JSONError(offset: escapeStart, message: "invalid \\u escape: expected 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Checks one multi-byte UTF-8 sequence at `index` (RFC 3629: no overlongs, no surrogates).
    private mutating func utf8Sequence() throws(JSONError) {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw JSONError(offset: index, message: "invalid UTF-8 byte 0x\(hex(lead)) in a string")
        }
        for offset in 1..<length {
            let position = index + offset
            guard position < bytes.count else {
                throw JSONError(offset: index, message: "invalid UTF-8: truncated sequence at end of input")
            }
            let byte = bytes[position]
            let (min, max) = offset == 1 ? (low, high) : (0x80, 0xBF)
            guard byte >= min, byte <= max else {
                throw JSONError(offset: position, message: "invalid UTF-8 byte 0x\(hex(byte)) in a string")
            }
        }
        index += length
    }

    private mutating func number() throws(JSONError) {
        let start = index
        let count = bytes.count
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < count, isDigit(bytes[index]) else {
            throw JSONError(offset: start, message: "invalid number: expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(bytes[index]) {
                throw JSONError(offset: start, message: "invalid number: leading zeros are not allowed")
            }
        } else {
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        var kind = JSONKind.int
        if index < count, bytes[index] == UInt8(ascii: ".") {
            kind = .double
            index += 1
            guard index < count, isDigit(bytes[index]) else {
                throw JSONError(offset: start, message: "invalid number: expected a digit after '.'")
            }
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            kind = .double
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, isDigit(bytes[index]) else {
                throw JSONError(offset: start, message: "invalid number: expected a digit in the exponent")
            }
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        let length = index - start
        if kind == .int, length - (negative ? 1 : 0) >= 19, !fitsInt64(start: start, negative: negative) {
            // A hostile file can hold a number of millions of digits: show its start only.
            let shown = min(length, 40)
            var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + shown)]), as: UTF8.self)
            if shown < length { text += "… (\(length) characters)" }
            throw JSONError(offset: start, message: "number \(text) is beyond the 64-bit integer range")
        }
        nodes.append(JSONNode(kind: kind, offset: UInt32(start), length: UInt32(length), end: UInt32(nodes.count + 1)))
    }

    private func fitsInt64(start: Int, negative: Bool) -> Bool {
        var value: Int64 = 0
        for position in (start + (negative ? 1 : 0))..<index {
            let digit = Int64(bytes[position] &- UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min fits.
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return false }
            value = next
        }
        return negative || value != Int64.min
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + text : text
    }
}
