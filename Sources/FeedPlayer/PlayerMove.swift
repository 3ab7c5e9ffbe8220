import FeedCore
/// A move of the ``PlayerWindow``'s current position.
public enum PlayerMove: Sendable, Equatable, CustomStringConvertible {
    /// The next item (position + 1); wraps to 0 after the last one when the window wraps.
    case next
    /// The previous item (position − 1); wraps to the last one from 0 when the window wraps.
    case previous
    /// A jump to a position in `0..<count`.
    case to(Int)

    /// `next`, `previous` or `to:N`, the spelling of headless scripts.
    public var description: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .to(let position): "to:\(position)"
        }
    }
}
