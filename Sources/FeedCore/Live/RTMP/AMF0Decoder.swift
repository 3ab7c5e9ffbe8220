/// Reads ``AMF0`` values from bytes a peer sent, one after another.
///
/// Safe on any input: every length is checked against the bytes that are there before
/// anything is read or kept, counts are hints that never size an allocation, objects and
/// arrays nest at most `maxDepth` deep, and invalid UTF-8 becomes U+FFFD. Errors name the
/// byte offset (from the start of the bytes given) where the value went wrong.
public struct AMF0Decoder: Sendable {
    /// How deep objects and arrays may nest unless the caller says otherwise.
    public static let defaultMaxDepth = 32

    private let bytes: ArraySlice<UInt8>
    private var position: Int
    /// How many objects and arrays may enclose a value; one more is ``RTMPError/amf0TooDeep(limit:)``.
    public let maxDepth: Int

    /// A decoder over `bytes`, starting at the first.
    public init(_ bytes: [UInt8], maxDepth: Int = AMF0Decoder.defaultMaxDepth) {
        self.init(bytes[...], maxDepth: maxDepth)
    }

    /// A decoder over `bytes`, starting at its first index.
    public init(_ bytes: ArraySlice<UInt8>, maxDepth: Int = AMF0Decoder.defaultMaxDepth) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.maxDepth = maxDepth
    }

    /// Where the next value starts, counted from the start of the bytes given.
    public var offset: Int { position - bytes.startIndex }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.endIndex }

    /// Every value in `bytes`, in order.
    public static func decodeAll(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(RTMPError) -> [AMF0] {
        try decodeAll(bytes[...], maxDepth: maxDepth)
    }

    /// Every value in `bytes`, in order.
    public static func decodeAll(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(RTMPError) -> [AMF0] {
        var decoder = AMF0Decoder(bytes, maxDepth: maxDepth)
        var values: [AMF0] = []
        while !decoder.isAtEnd { values.append(try decoder.decode()) }
        return values
    }

    /// The next value. Throws ``RTMPError/amf0Truncated(offset:)`` when the bytes end inside
    /// it, ``RTMPError/amf0TooDeep(limit:)`` past `maxDepth` and
    /// ``RTMPError/amf0UnsupportedMarker(_:offset:)`` for a type it does not read.
    public mutating func decode() throws(RTMPError) -> AMF0 {
        try value(depth: 0)
    }

    private mutating func value(depth: Int) throws(RTMPError) -> AMF0 {
        let start = position
        let marker = try byte()
        switch marker {
        case 0x00:
            return .number(Double(bitPattern: try uint(8)))
        case 0x01:
            return .boolean(try byte() != 0)
        case 0x02:
            return .string(try text(length: Int(try uint(2))))
        case 0x03, 0x08:
            guard depth < maxDepth else { throw .amf0TooDeep(limit: maxDepth) }
            if marker == 0x08 { _ = try uint(4) }  // the count is a hint; the end marker ends it
            let properties = try properties(depth: depth + 1, endMayBeMissing: marker == 0x08)
            return marker == 0x03 ? .object(properties) : .ecmaArray(properties)
        case 0x05:
            return .null
        case 0x06:
            return .undefined
        case 0x0A:
            guard depth < maxDepth else { throw .amf0TooDeep(limit: maxDepth) }
            let count = try uint(4)
            var elements: [AMF0] = []
            // Every element takes at least one byte: a count past the bytes left fails as a
            // truncation after reading what is there, and never sizes an allocation.
            var index: UInt64 = 0
            while index < count {
                elements.append(try value(depth: depth + 1))
                index += 1
            }
            return .strictArray(elements)
        case 0x0B:
            let milliseconds = Double(bitPattern: try uint(8))
            return .date(milliseconds: milliseconds, timeZone: Int16(bitPattern: UInt16(try uint(2))))
        case 0x0C:
            return .string(try text(length: Int(try uint(4))))
        default:
            throw .amf0UnsupportedMarker(marker, offset: start - bytes.startIndex)
        }
    }

    /// Name-value pairs up to the object-end marker (`00 00 09`). An ECMA array whose bytes
    /// end where a name would start is taken as ended: librtmp reads them so, and some
    /// encoders leave the marker out.
    private mutating func properties(depth: Int, endMayBeMissing: Bool) throws(RTMPError) -> [AMF0.Property] {
        var properties: [AMF0.Property] = []
        while true {
            if endMayBeMissing, isAtEnd { return properties }
            let name = try text(length: Int(try uint(2)))
            if name.isEmpty, position < bytes.endIndex, bytes[position] == 0x09 {
                position += 1
                return properties
            }
            properties.append(AMF0.Property(name, try value(depth: depth)))
        }
    }

    private mutating func byte() throws(RTMPError) -> UInt8 {
        guard position < bytes.endIndex else { throw .amf0Truncated(offset: offset) }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes (at most 8) as a big-endian number.
    private mutating func uint(_ count: Int) throws(RTMPError) -> UInt64 {
        guard bytes.endIndex - position >= count else { throw .amf0Truncated(offset: offset) }
        var value: UInt64 = 0
        for index in position ..< position + count { value = value << 8 | UInt64(bytes[index]) }
        position += count
        return value
    }

    private mutating func text(length: Int) throws(RTMPError) -> String {
        guard bytes.endIndex - position >= length else { throw .amf0Truncated(offset: offset) }
        defer { position += length }
        return String(decoding: bytes[position ..< position + length], as: UTF8.self)
    }
}
