/// The id of a video, post, comment or user. LIVEr and Pexels use integers, FeedsApp uses strings.
public enum FeedID: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// A numeric id such as `1235`.
    case int(Int64)
    /// A textual id such as `DJDphyX`.
    case string(String)

    /// Reads an id typed by a user or found in a JSON string: canonical decimal text
    /// (`"1235"`, `"-4"`, no leading zeros or `+`) becomes `.int`, anything else `.string`.
    public init(parsing text: String) {
        if let value = Int64(text), String(value) == text {
            self = .int(value)
        } else {
            self = .string(text)
        }
    }

    /// The id as written: `1235` or `DJDphyX`.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let text): text
        }
    }

    /// Integers sort before strings; integers numerically, strings by their Unicode scalars.
    public static func < (lhs: FeedID, rhs: FeedID) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a < b
        case (.int, .string): true
        case (.string, .int): false
        case (.string(let a), .string(let b)): a < b
        }
    }

    /// Decodes a JSON number or a JSON string (the latter through ``init(parsing:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else {
            self = FeedID(parsing: try container.decode(String.self))
        }
    }

    /// Encodes `.int` as a JSON number and `.string` as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let text): try container.encode(text)
        }
    }
}
