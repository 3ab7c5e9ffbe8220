/// Writes ``AMF0`` values into bytes, one after another, as RTMP's command and data
/// messages carry them.
///
/// Encoding never fails: a string over 65535 UTF-8 bytes becomes a long string, and a
/// property name over 65535 bytes (which AMF0 cannot carry) is cut at a character boundary.
public struct AMF0Encoder: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An encoder with nothing written.
    public init() {}

    /// `values` encoded one after another.
    public static func encode(_ values: [AMF0]) -> [UInt8] {
        var encoder = AMF0Encoder()
        for value in values { encoder.append(value) }
        return encoder.bytes
    }

    /// Appends `value` (and, for objects and arrays, everything inside it).
    public mutating func append(_ value: AMF0) {
        switch value {
        case let .number(number):
            bytes.append(0x00)
            appendUInt64(number.bitPattern)
        case let .boolean(flag):
            bytes.append(0x01)
            bytes.append(flag ? 1 : 0)
        case let .string(text):
            let utf8 = Array(text.utf8)
            if utf8.count <= 0xFFFF {
                bytes.append(0x02)
                appendUInt16(UInt16(utf8.count))
            } else {
                bytes.append(0x0C)
                appendUInt32(UInt32(truncatingIfNeeded: utf8.count))
            }
            bytes.append(contentsOf: utf8)
        case let .object(properties):
            bytes.append(0x03)
            appendProperties(properties)
        case .null:
            bytes.append(0x05)
        case .undefined:
            bytes.append(0x06)
        case let .ecmaArray(properties):
            bytes.append(0x08)
            appendUInt32(UInt32(truncatingIfNeeded: properties.count))
            appendProperties(properties)
        case let .strictArray(values):
            bytes.append(0x0A)
            appendUInt32(UInt32(truncatingIfNeeded: values.count))
            for element in values { append(element) }
        case let .date(milliseconds, timeZone):
            bytes.append(0x0B)
            appendUInt64(milliseconds.bitPattern)
            appendUInt16(UInt16(bitPattern: timeZone))
        }
    }

    private mutating func appendProperties(_ properties: [AMF0.Property]) {
        for property in properties {
            let name = Self.cut(property.name)
            appendUInt16(UInt16(name.count))
            bytes.append(contentsOf: name)
            append(property.value)
        }
        bytes.append(contentsOf: [0x00, 0x00, 0x09])
    }

    /// `name`'s UTF-8, cut to 65535 bytes without splitting a character.
    private static func cut(_ name: String) -> [UInt8] {
        var utf8 = Array(name.utf8)
        guard utf8.count > 0xFFFF else { return utf8 }
        var end = 0xFFFF
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }  // back off a continuation byte
        utf8.removeSubrange(end...)
        return utf8
    }

    private mutating func appendUInt16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    private mutating func appendUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private mutating func appendUInt64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
