/// One value of Adobe's Action Message Format 0, the encoding of RTMP's commands and
/// metadata. Objects and ECMA arrays keep their properties in order, as they were on the wire.
///
/// Strings and long strings are one case: ``AMF0Encoder`` writes a long string when the text
/// is over 65535 UTF-8 bytes, and ``AMF0Decoder`` reads both into `.string`.
public enum AMF0: Sendable, Equatable {
    /// A number (marker 0x00): every number in AMF0 is a Double.
    case number(Double)
    /// A boolean (marker 0x01).
    case boolean(Bool)
    /// A string (marker 0x02) or a long string (marker 0x0C).
    case string(String)
    /// An anonymous object (marker 0x03): named properties, ended by the object-end marker.
    case object([Property])
    /// Null (marker 0x05).
    case null
    /// Undefined (marker 0x06).
    case undefined
    /// An ECMA (associative) array (marker 0x08): properties like an object's, after a count
    /// that is only a hint. `onMetaData` is usually one.
    case ecmaArray([Property])
    /// A strict (dense) array (marker 0x0A).
    case strictArray([AMF0])
    /// A date (marker 0x0B): milliseconds since 1970 UTC, and a time zone that AMF0 says
    /// must be 0 (in minutes; kept as read).
    case date(milliseconds: Double, timeZone: Int16)

    /// One named property of an object or an ECMA array.
    public struct Property: Sendable, Equatable {
        /// The property's name (at most 65535 UTF-8 bytes on the wire).
        public var name: String
        /// The property's value.
        public var value: AMF0

        /// A property named `name` holding `value`.
        public init(_ name: String, _ value: AMF0) {
            self.name = name
            self.value = value
        }
    }

    /// The value of the property named `name` of an object or ECMA array (the last one when
    /// the name repeats); nil for other values.
    public subscript(name: String) -> AMF0? {
        properties?.last { $0.name == name }?.value
    }

    /// The properties of an object or ECMA array; nil for other values.
    public var properties: [Property]? {
        switch self {
        case let .object(properties), let .ecmaArray(properties): properties
        default: nil
        }
    }

    /// The properties of an object or ECMA array as a dictionary (a repeated name keeps its
    /// last value); nil for other values.
    public var dictionary: [String: AMF0]? {
        properties.map { Dictionary($0.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
    }

    /// The text of a string; nil for other values.
    public var stringValue: String? {
        if case let .string(text) = self { text } else { nil }
    }

    /// The number of a number; nil for other values.
    public var numberValue: Double? {
        if case let .number(number) = self { number } else { nil }
    }
}
