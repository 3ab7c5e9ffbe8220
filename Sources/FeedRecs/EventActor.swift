/// Whose history an event joins: a user (a token's `sub`, or `X-Feed-User` on an open server)
/// or, for a client with no user, the device it names. A device's history joins its user's when
/// the device signs in (an event from a user that names the device).
public enum EventActor: Sendable, Hashable, CustomStringConvertible {
    /// A user, by name.
    case user(String)
    /// A device with no user (yet), by the id its app made.
    case device(String)

    /// How the catalog keys it: `u:NAME` or `d:ID`.
    public var key: String {
        switch self {
        case let .user(name): "u:\(name)"
        case let .device(id): "d:\(id)"
        }
    }

    /// The actor a catalog key names (nil for anything else).
    public init?(key: String) {
        if key.hasPrefix("u:") { self = .user(String(key.dropFirst(2))) } else if key.hasPrefix("d:") {
            self = .device(String(key.dropFirst(2)))
        } else { return nil }
    }

    /// The user's name, if a user.
    public var user: String? {
        if case let .user(name) = self { return name }
        return nil
    }

    public var description: String {
        switch self {
        case let .user(name): "user \(name)"
        case let .device(id): "device \(id)"
        }
    }
}
