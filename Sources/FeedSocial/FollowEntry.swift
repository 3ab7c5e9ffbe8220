import Foundation

/// One row of a followers or following list: the user, when the follow began, and the
/// position a next page starts below.
public struct FollowEntry: Sendable, Equatable {
    /// The follow's own number: a page's cursor.
    public var cursor: Int64
    /// The user on the other side.
    public var name: String
    /// Their display name.
    public var displayName: String
    /// Since when.
    public var since: Date

    /// An entry.
    public init(cursor: Int64, name: String, displayName: String, since: Date) {
        self.cursor = cursor
        self.name = name
        self.displayName = displayName
        self.since = since
    }
}
