/// The little XML S3 answers with (`ListBucketResult`, `Error`, `InitiateMultipartUploadResult`,
/// …): elements with text, no attributes that matter, the five entities and numeric references.
/// Not a general XML parser: a document outside that shape is refused, not guessed at.
struct S3XML: Equatable {
    /// The element's name, without a namespace prefix.
    var name: String
    /// The text directly inside it, entities decoded.
    var text: String
    /// The elements inside it, in order.
    var children: [S3XML]

    /// The first child named `name`.
    func first(_ name: String) -> S3XML? { children.first { $0.name == name } }
    /// Every child named `name`.
    func all(_ name: String) -> [S3XML] { children.filter { $0.name == name } }
    /// The text of the first child named `name`.
    subscript(_ name: String) -> String? { first(name)?.text }

    /// Parses `bytes`; nil when they are not such a document (or nest over 32 deep).
    static func parse(_ bytes: [UInt8]) -> S3XML? {
        var parser = Parser(bytes: bytes)
        return parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func document() -> S3XML? {
            skipProlog()
            guard let root = element(depth: 0) else { return nil }
            skipSpace()
            return at == bytes.count ? root : nil
        }

        mutating func skipSpace() { while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 } }

        /// `<?xml …?>` and comments before the root.
        mutating func skipProlog() {
            while true {
                skipSpace()
                if starts("<?"), let end = find("?>") { at = end + 2 } else if starts("<!--"), let end = find("-->") { at = end + 3 } else { return }
            }
        }

        /// Whether the bytes at `index` (default: here) are `text`'s; nothing is allocated.
        func starts(_ text: StaticString, at index: Int? = nil) -> Bool {
            let from = index ?? at
            guard from + text.utf8CodeUnitCount <= bytes.count else { return false }
            return text.withUTF8Buffer { pattern in
                for offset in 0..<pattern.count where bytes[from + offset] != pattern[offset] { return false }
                return true
            }
        }

        /// Where `text` next begins, from here.
        func find(_ text: StaticString) -> Int? {
            var index = at
            while index + text.utf8CodeUnitCount <= bytes.count {
                if starts(text, at: index) { return index }
                index += 1
            }
            return nil
        }

        mutating func element(depth: Int) -> S3XML? {
            guard depth < 32, at < bytes.count, bytes[at] == UInt8(ascii: "<") else { return nil }
            at += 1
            let nameStart = at
            while at < bytes.count, !["/", ">", " ", "\t", "\n", "\r"].map({ UInt8(ascii: $0) }).contains(bytes[at]) { at += 1 }
            let qualified = String(decoding: bytes[nameStart..<at], as: UTF8.self)
            guard !qualified.isEmpty else { return nil }
            let name = qualified.split(separator: ":").last.map(String.init) ?? qualified
            // Attributes (xmlns) are skipped; a quoted `>` inside one is not expected from S3.
            while at < bytes.count, bytes[at] != UInt8(ascii: ">") { at += 1 }
            guard at < bytes.count else { return nil }
            if bytes[at - 1] == UInt8(ascii: "/") { at += 1; return S3XML(name: name, text: "", children: []) }
            at += 1
            var text: [UInt8] = [], children: [S3XML] = []
            while at < bytes.count {
                if starts("</") {
                    guard let end = find(">") else { return nil }
                    let closing = String(decoding: bytes[(at + 2)..<end], as: UTF8.self).trimmingSpaces()
                    guard closing == qualified else { return nil }
                    at = end + 1
                    guard let decoded = Self.decode(text) else { return nil }
                    return S3XML(name: name, text: decoded, children: children)
                } else if starts("<!--") {
                    guard let end = find("-->") else { return nil }
                    at = end + 3
                } else if starts("<![CDATA[") {
                    guard let end = find("]]>") else { return nil }
                    // Kept as entity-free text: escape the ampersands decode() would read.
                    for byte in bytes[(at + 9)..<end] { byte == UInt8(ascii: "&") ? text.append(contentsOf: Array("&amp;".utf8)) : text.append(byte) }
                    at = end + 3
                } else if bytes[at] == UInt8(ascii: "<") {
                    guard let child = element(depth: depth + 1) else { return nil }
                    children.append(child)
                } else {
                    text.append(bytes[at])
                    at += 1
                }
            }
            return nil
        }

        static func decode(_ raw: [UInt8]) -> String? {
            var out: [UInt8] = [], i = 0
            while i < raw.count {
                guard raw[i] == UInt8(ascii: "&") else { out.append(raw[i]); i += 1; continue }
                guard let semicolon = raw[i...].firstIndex(of: UInt8(ascii: ";")), semicolon - i <= 10 else { return nil }
                let entity = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
                switch entity {
                case "amp": out.append(UInt8(ascii: "&"))
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                    guard let number, let scalar = Unicode.Scalar(number) else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                i = semicolon + 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

private extension String {
    func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
