import FeedCore
/// The positions held by a ``PlayerWindow``'s three slots.
///
/// Positions are indexes into the feed (`0..<count`); map them to ids with the feed's
/// videos for display. A neighbour is `nil` at an end of the feed when the window does not
/// wrap, and when it would be the current item itself (a one-item feed). In a wrapping
/// two-item feed both neighbours are the same position, held by one player.
public struct PlayerSlots: Sendable, Equatable, CustomStringConvertible {
    /// The item before the current one, if any.
    public var previous: Int?
    /// The item playing (or loading to play).
    public var current: Int
    /// The item after the current one, if any.
    public var next: Int?

    /// The slots of a window whose current item is `current` in a feed of `count` items.
    /// - Precondition: `0 <= current < count`.
    public init(current: Int, count: Int, wrap: Bool) {
        precondition(count > 0 && (0..<count).contains(current), "position \(current) outside 0..<\(count)")
        self.current = current
        var before = current - 1
        var after = current + 1
        if wrap {
            if before < 0 { before = count - 1 }
            if after >= count { after = 0 }
        }
        previous = before >= 0 && before != current ? before : nil
        next = after < count && after != current ? after : nil
    }

    /// The distinct positions the window keeps live, current first, then next, then previous.
    public var positions: [Int] {
        var result = [current]
        if let next { result.append(next) }
        if let previous, previous != next { result.append(previous) }
        return result
    }

    /// `[previous current next]` with `-` for an empty slot.
    public var description: String {
        "[\(previous.map(String.init) ?? "-") \(current) \(next.map(String.init) ?? "-")]"
    }
}
