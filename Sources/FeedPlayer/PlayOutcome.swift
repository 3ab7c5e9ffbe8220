import FeedCore
/// What a ``PlayController`` did with one ``PlayerCommand``.
public enum PlayOutcome: Sendable, Equatable {
    /// The window moved, or stayed at an end of the feed; `slots` after the move. The window
    /// reports the details on its own `events`.
    case moved(PlayerSlots)
    /// The current clip was paused on the frame at `time` (clip seconds).
    case paused(time: Double)
    /// The current clip plays again from the frame at `time`.
    case resumed(time: Double)
    /// The current clip now shows the frame at `time`.
    case seeked(time: Double)
    /// The session is muted.
    case muted
    /// The session is no longer muted.
    case unmuted
    /// The current clip is liked (and the like saved).
    case liked
    /// The current clip is bookmarked (and the bookmark saved).
    case bookmarked
    /// Auto-advance is now on (true) or off.
    case autoAdvance(Bool)
    /// Nothing was done: no clip is playing at the current position (it failed or is loading).
    case skipped(reason: String)
    /// The command failed: a seek the decoder refused, a mark that could not be saved.
    case failed(reason: String)
    /// The viewer asked to end the session; the caller closes the window.
    case quit
}
