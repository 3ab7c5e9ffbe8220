import FeedCore
/// Something that happened in a ``PlayerWindow``, with the window's state right after it.
public struct PlayerWindowEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The current position changed (`from` is nil for `start`).
        case moved(from: Int?, to: Int)
        /// The factory returned a player for `position`: it is open and counts as live.
        case loaded(Int)
        /// The player for `position` decoded its first frame and is ready to play.
        case prepared(Int)
        /// The current item (`position`) is ready to show, `elapsed` after the move that made
        /// it current; `wasPrepared` tells whether it was a prepared neighbour at the move.
        case firstFrame(Int, elapsed: Duration, wasPrepared: Bool)
        /// `position` left the window: its player was closed, or its load cancelled.
        case evicted(Int)
        /// A load for `position` that had been evicted finished and its player was closed
        /// without ever landing in a slot.
        case cancelled(Int)
        /// The clip at `position` could not be opened or prepared; its slot holds the error
        /// and the window goes on.
        case failed(Int, message: String)
    }

    /// What happened.
    public var kind: Kind
    /// The positions with an open player after the event, ascending. A position appears
    /// twice while a cancelled load for it is still finishing and a new one has started.
    public var live: [Int]
    /// The slots after the event.
    public var slots: PlayerSlots

    /// Creates an event.
    public init(kind: Kind, live: [Int], slots: PlayerSlots) {
        self.kind = kind
        self.live = live
        self.slots = slots
    }

    /// `moved 3->4 live=[3, 4] slots=[3 4 5]`, for logs and test failures.
    public var description: String {
        let what: String
        switch kind {
        case .moved(let from, let to): what = "moved \(from.map(String.init) ?? "-")->\(to)"
        case .loaded(let p): what = "loaded \(p)"
        case .prepared(let p): what = "prepared \(p)"
        case .firstFrame(let p, let elapsed, let wasPrepared):
            what = "firstFrame \(p) \(elapsed)\(wasPrepared ? " prepared" : " cold")"
        case .evicted(let p): what = "evicted \(p)"
        case .cancelled(let p): what = "cancelled \(p)"
        case .failed(let p, let message): what = "failed \(p): \(message)"
        }
        return "\(what) live=\(live) slots=\(slots)"
    }
}
