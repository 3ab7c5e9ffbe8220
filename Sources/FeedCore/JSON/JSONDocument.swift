#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A parsed JSON text: the bytes and a flat tape of ``JSONNode``s. Node 0 is the root.
///
/// Values are read lazily from the bytes: strings are unescaped and numbers converted only
/// when a decoder asks for them.
struct JSONDocument: Sendable {
    /// The text as parsed.
    let bytes: [UInt8]
    /// The values in document order; object members are a name node then a value node.
    let nodes: [JSONNode]

    /// The index of the root value.
    var root: Int { 0 }

    /// The kind of node `index`.
    @inline(__always)
    func kind(_ index: Int) -> JSONKind { nodes[index].kind }

    /// Byte offset of node `index`.
    @inline(__always)
    func offset(_ index: Int) -> Int { Int(nodes[index].offset) }

    /// The elements of array node `index`, as node indices.
    func elements(of index: Int) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(Int(nodes[index].length))
        var child = index + 1
        let end = Int(nodes[index].end)
        while child < end {
            result.append(child)
            child = Int(nodes[child].end)
        }
        return result
    }

    /// The value node of the first member of object node `index` named `name`, if any.
    func member(_ name: StaticString, of index: Int) -> Int? {
        var child = index + 1
        let end = Int(nodes[index].end)
        while child < end {
            if nameEquals(child, name) { return child + 1 }
            child = Int(nodes[child + 1].end)
        }
        return nil
    }

    /// The first member name of object node `index` that repeats an earlier one: its name node
    /// and the earlier's. RFC 8259 leaves such an object's meaning to the reader (jq, JavaScript
    /// and Python take the last value; ``member(_:of:)`` the first), so a feed must not hold one.
    func repeatedName(in index: Int) -> (name: Int, earlier: Int)? {
        let end = Int(nodes[index].end)
        var child = index + 1
        while child < end {
            var earlier = index + 1
            while earlier < child {
                if sameName(earlier, child) { return (child, earlier) }
                earlier = Int(nodes[earlier + 1].end)
            }
            child = Int(nodes[child + 1].end)
        }
        return nil
    }

    /// Whether string nodes `a` and `b` hold the same text.
    private func sameName(_ a: Int, _ b: Int) -> Bool {
        let x = nodes[a], y = nodes[b]
        if x.kind == .escapedString || y.kind == .escapedString { return string(a) == string(b) }
        guard x.length == y.length else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            memcmp(buffer.baseAddress! + Int(x.offset) + 1, buffer.baseAddress! + Int(y.offset) + 1, Int(x.length)) == 0
        }
    }

    /// Whether string node `index` holds exactly `name`.
    func nameEquals(_ index: Int, _ name: StaticString) -> Bool {
        let node = nodes[index]
        if node.kind == .escapedString { return string(index) == name.description }
        guard node.kind == .string, Int(node.length) == name.utf8CodeUnitCount else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            memcmp(buffer.baseAddress! + Int(node.offset) + 1, name.utf8Start, Int(node.length)) == 0
        }
    }

    /// The text of string node `index`, escapes resolved.
    func string(_ index: Int) -> String {
        let node = nodes[index]
        let start = Int(node.offset) + 1
        let end = start + Int(node.length)
        return bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeBufferPointer(rebasing: buffer[start..<end])
            return node.kind == .string ? String(decoding: raw, as: UTF8.self) : Self.unescape(raw)
        }
    }

    /// The value of int node `index` (the parser has ruled out overflow).
    func int64(_ index: Int) -> Int64 {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { buffer in
            var position = Int(node.offset)
            let end = position + Int(node.length)
            let negative = buffer[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            var value: Int64 = 0
            while position < end {
                value = value &* 10 &- Int64(buffer[position] &- UInt8(ascii: "0"))
                position += 1
            }
            return negative ? value : 0 &- value
        }
    }

    /// The value of number node `index` (int or double) as a `Double`.
    func double(_ index: Int) -> Double {
        let node = nodes[index]
        if node.kind == .int { return Double(int64(index)) }
        return bytes.withUnsafeBufferPointer { buffer in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(node.length) + 1) { text in
                for offset in 0..<Int(node.length) { text[offset] = CChar(bitPattern: buffer[Int(node.offset) + offset]) }
                text[Int(node.length)] = 0
                return strtod(text.baseAddress!, nil)
            }
        }
    }

    /// The value as written, for messages: strings quoted (cut at 40 characters), numbers and
    /// literals as they are (cut at 40 bytes), containers as "an object" / "an array".
    ///
    /// Only the first ``previewBytes`` bytes of a long string are decoded, so a message about a
    /// 200 MB value costs no more than one about a short one.
    func preview(_ index: Int) -> String {
        let node = nodes[index]
        switch node.kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string, .escapedString:
            let long = Int(node.length) > Self.previewBytes
            let text = long ? stringPrefix(index) : string(index)
            let cut = long || text.count > 40 ? String(text.prefix(40)) + "…" : text
            var quoted = "\""
            for scalar in cut.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                // C0, DEL and C1 controls (ESC, CSI …) are escaped so a message cannot drive a terminal.
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    quoted += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        default:
            // Numbers and literals are ASCII (the parser checked), so a byte cut is a character cut.
            let start = Int(node.offset)
            let shown = min(Int(node.length), 40)
            let text = String(decoding: bytes[start..<(start + shown)], as: UTF8.self)
            return shown < Int(node.length) ? text + "…" : text
        }
    }

    /// How much of a string ``preview(_:)`` decodes: enough for 40 characters of any script.
    static let previewBytes = 512

    /// The text of the first ``previewBytes`` bytes (or a little less) of string node `index`,
    /// cut before an escape sequence rather than inside one.
    private func stringPrefix(_ index: Int) -> String {
        let node = nodes[index]
        let start = Int(node.offset) + 1
        return bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeBufferPointer(rebasing: buffer[start..<(start + Int(node.length))])
            guard node.kind == .escapedString else {
                return String(decoding: UnsafeBufferPointer(rebasing: raw[..<Self.previewBytes]), as: UTF8.self)
            }
            var end = 0
            while end < raw.count {
                var step = 1
                if raw[end] == 0x5C {
                    // \uD8xx–\uDBxx is a high surrogate: the parser checked a \uXXXX low one follows.
                    let high = raw[end + 1] == UInt8(ascii: "u") && raw[end + 2] | 0x20 == UInt8(ascii: "d")
                        && (8...11).contains(Self.hexValue(raw[end + 3]) ?? 0)
                    step = raw[end + 1] != UInt8(ascii: "u") ? 2 : high ? 12 : 6
                }
                if end + step > Self.previewBytes { break }
                end += step
            }
            return Self.unescape(UnsafeBufferPointer(rebasing: raw[..<end]))
        }
    }

    /// The numeric value of an ASCII hex digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Resolves the escapes of string bytes the parser has already checked.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var position = 0
        func quad(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | UInt32(hexValue(raw[at + $1]) ?? 0) }
        }
        while position < raw.count {
            let byte = raw[position]
            guard byte == 0x5C else {
                out.append(byte)
                position += 1
                continue
            }
            let code = raw[position + 1]
            position += 2
            switch code {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = quad(position)
                position += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (quad(position + 2) - 0xDC00)
                    position += 6
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: out.append(code)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
