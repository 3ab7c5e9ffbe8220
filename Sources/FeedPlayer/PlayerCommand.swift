import FeedCore
/// One thing the viewer asks of `feed play`: from a key in the terminal, or a step of a
/// headless `--script`.
public enum PlayerCommand: Sendable, Equatable, CustomStringConvertible {
    /// Move the window (`next`, `prev`, `to:N`).
    case move(PlayerMove)
    /// Pause the current clip.
    case pause
    /// Resume the current clip.
    case resume
    /// Seek the current clip by this many seconds (negative: back).
    case seek(seconds: Double)
    /// Toggle the muted state (the `m` key, the `mute` step).
    case mute
    /// Unmute; nothing changes when not muted (the `unmute` step).
    case unmute
    /// Like the current clip (persisted by the caller).
    case like
    /// Bookmark the current clip.
    case bookmark
    /// Toggle auto-advance: at its end a clip moves to the next one instead of looping.
    /// A terminal key (`a`), not a script step.
    case autoAdvance
    /// End the session. A terminal key (`q`, Ctrl-C), not a script step.
    case quit

    /// The script spelling: `next`, `prev`, `to:3`, `pause`, `resume`, `seek:+5`, `mute`, `unmute`, `like`,
    /// `bookmark`; `auto` and `quit` for the two commands scripts do not take.
    public var description: String {
        switch self {
        case .move(.next): "next"
        case .move(.previous): "prev"
        case .move(.to(let position)): "to:\(position)"
        case .pause: "pause"
        case .resume: "resume"
        case .seek(let seconds): "seek:\(seconds < 0 ? "" : "+")\(Self.format(seconds))"
        case .mute: "mute"
        case .unmute: "unmute"
        case .like: "like"
        case .bookmark: "bookmark"
        case .autoAdvance: "auto"
        case .quit: "quit"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
