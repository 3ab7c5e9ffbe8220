/// One JSON value of an event, as the batch reader checks it field by field (so that a wrong
/// field is named, not only "not valid JSON").
enum EventValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case object([String: EventValue])
    case array

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([String: EventValue].self) { self = .object(value); return }
        _ = try container.decode([EventValue].self)
        self = .array
    }

    /// What it is, in words, for an error message.
    var found: String {
        switch self {
        case .null: "null"
        case let .bool(value): "\(value)"
        case let .int(value): "\(value)"
        case let .double(value): "\(value)"
        case let .string(value): "\"\(value.prefix(40))\""
        case .object: "an object"
        case .array: "an array"
        }
    }
}
