import FeedCore
/// What a slot of a ``PlayerWindow`` holds, as seen from outside the window.
public enum SlotState<Player: ClipPlayer>: Sendable {
    /// The position is not in the window.
    case empty
    /// A load is queued or in flight.
    case loading
    /// The player is prepared: its first frame is decoded.
    case ready(Player)
    /// The clip could not be opened or prepared; `message` is the error's one-line text.
    case failed(message: String)

    /// The prepared player, if the slot is ready.
    public var player: Player? {
        if case .ready(let player) = self { return player }
        return nil
    }

    /// True once the slot is ready or failed: nothing more will happen to it while it stays.
    public var isSettled: Bool {
        switch self {
        case .ready, .failed: true
        case .empty, .loading: false
        }
    }
}
