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
    /// Toggle the muted state.
    case mute
    /// Like the current clip (persisted by the caller).
    case like
    /// Bookmark the current clip.
    case bookmark

    /// The script spelling: `next`, `prev`, `to:3`, `pause`, `resume`, `seek:+5`, `mute`, `like`, `bookmark`.
    public var description: String {
        switch self {
        case .move(.next): "next"
        case .move(.previous): "prev"
        case .move(.to(let position)): "to:\(position)"
        case .pause: "pause"
        case .resume: "resume"
        case .seek(let seconds): "seek:\(seconds < 0 ? "" : "+")\(Self.format(seconds))"
        case .mute: "mute"
        case .like: "like"
        case .bookmark: "bookmark"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
