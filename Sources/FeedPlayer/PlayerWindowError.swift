import FeedCore
/// Why a ``PlayerWindow`` refused a request.
public enum PlayerWindowError: FeedFailure, Equatable {
    /// The feed has no items to play.
    case emptyFeed
    /// A position outside the feed was asked for.
    case positionOutOfRange(Int, count: Int)
    /// `move` was called before `start` or after `close`.
    case notRunning

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .emptyFeed:
            "the feed has no videos to play"
        case .positionOutOfRange(let position, let count):
            "position \(position) is outside the feed (0..<\(count))"
        case .notRunning:
            "the player window is not running: call start(at:) first, and not after close()"
        }
    }

    /// An empty feed is bad data, a position outside it a bad request, the rest a bug.
    public var kind: FailureKind {
        switch self {
        case .emptyFeed: .invalidData
        case .positionOutOfRange: .usage
        case .notRunning: .bug
        }
    }
}
