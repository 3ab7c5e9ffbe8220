/// Line and column of a byte offset, computed only when a problem is reported.
struct TextPosition: Equatable, Sendable {
    /// 1-based line.
    var line: Int
    /// 1-based column in Unicode scalars; a leading byte-order mark is not counted.
    var column: Int

    /// The positions of `offsets` (any order) in `bytes`, in one pass over the text.
    static func locate(_ offsets: [Int], in bytes: [UInt8]) -> [TextPosition] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var result = [TextPosition](repeating: TextPosition(line: 1, column: 1), count: offsets.count)
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        var line = 1
        var column = 1
        var scanned = hasBOM ? 3 : 0
        for index in order {
            let target = min(max(offsets[index], 0), bytes.count)
            while scanned < target {
                let byte = bytes[scanned]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                scanned += 1
            }
            result[index] = TextPosition(line: line, column: column)
        }
        return result
    }

    /// The position of one byte offset in `bytes`.
    static func of(_ offset: Int, in bytes: [UInt8]) -> TextPosition {
        locate([offset], in: bytes)[0]
    }
}
