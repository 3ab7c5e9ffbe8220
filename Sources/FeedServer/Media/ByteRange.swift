/// What a `Range` request header (RFC 9110 §14.2) asks of a representation of `size` bytes.
///
/// feed serves one range as 206; several ranges are served as the whole file (200), which
/// RFC 9110 allows and every player handles. A header whose unit is not `bytes` or whose
/// syntax is invalid is ignored (200), as the RFC permits; ranges of which none overlaps the
/// file are refused (416 with `Content-Range: bytes */SIZE`).
public enum ByteRange: Equatable, Sendable {
    /// Serve the whole representation (no Range, an ignored one, or several ranges).
    case whole
    /// Serve bytes `first...last` (inclusive, both within the file).
    case partial(first: Int64, last: Int64)
    /// No range overlaps the file.
    case unsatisfiable

    /// Reads `header` (nil when absent) against a file of `size` bytes.
    public init(header: String?, size: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingWhitespace
        guard let equals = trimmed.firstIndex(of: "="),
              trimmed[..<equals].trimmingWhitespace.lowercased() == "bytes" else { self = .whole; return }
        var satisfiable: [(Int64, Int64)] = []
        var count = 0
        for part in trimmed[trimmed.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            let spec = part.trimmingWhitespace
            if spec.isEmpty { continue } // RFC 9110 list syntax allows empty elements
            count += 1
            guard let dash = spec.firstIndex(of: "-") else { self = .whole; return }
            let firstText = spec[..<dash], lastText = spec[spec.index(after: dash)...]
            if firstText.isEmpty {
                // Suffix range: the last N bytes.
                guard let length = Self.digits(lastText) else { self = .whole; return }
                // The one range an empty file satisfies (§14.1.1): its whole (no) bytes, as 200.
                if length > 0 && size == 0 { self = .whole; return }
                if length > 0 && size > 0 { satisfiable.append((max(0, size - length), size - 1)) }
            } else {
                guard let first = Self.digits(firstText) else { self = .whole; return }
                var last = size - 1
                if !lastText.isEmpty {
                    guard let given = Self.digits(lastText), given >= first else { self = .whole; return }
                    last = min(given, size - 1)
                }
                if first < size { satisfiable.append((first, last)) }
            }
        }
        if count == 0 { self = .whole; return }
        if satisfiable.isEmpty { self = .unsatisfiable; return }
        if count > 1 { self = .whole; return }
        self = .partial(first: satisfiable[0].0, last: satisfiable[0].1)
    }

    /// A run of ASCII digits as a non-negative number (nil for anything else or an overflow).
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text) ?? (text.count > 18 ? Int64.max : nil)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingWhitespace: Substring {
        let text = Substring(self)
        guard let start = text.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return text[text.endIndex...] }
        let end = text.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return text[start...end]
    }
}
