import FeedCore
/// The one place where the viewer's ``PlayerCommand``s act on a ``PlayerWindow``: moves, pause,
/// resume, seek, mute, auto-advance, like and bookmark. The terminal screen maps keys to
/// commands and draws; `--headless` maps script steps to commands and prints what happened.
///
/// The controller keeps the session's state (paused, muted, auto-advance); a move plays the
/// new clip, so it ends a pause. Likes and bookmarks are saved by the `mark` closure the caller
/// passes in (FeedCore's player knows nothing about where marks live). Use it from one task
/// at a time.
public final class PlayController<Player: ControllablePlayer> {
    /// Saves a `.like` or `.bookmark` of the item at a feed position: nil when saved, else why not.
    public typealias Marker = @Sendable (_ command: PlayerCommand, _ position: Int) async -> String?

    /// The window the commands act on.
    public let window: PlayerWindow<Player>
    /// Whether the current clip was paused by a command (a move resets it).
    public private(set) var isPaused = false
    /// Whether the session is muted (feed has no audio output: a state for the overlay).
    public private(set) var isMuted = false
    /// Whether a clip that ends moves to the next one instead of looping.
    public private(set) var autoAdvance = false
    private let mark: Marker

    /// A controller of `window`; `mark` saves likes and bookmarks (the default saves nothing
    /// and reports success).
    public init(window: PlayerWindow<Player>, mark: @escaping Marker = { _, _ in nil }) {
        self.window = window
        self.mark = mark
    }

    /// Applies `command` to the window or the current clip and says what happened. Pause,
    /// resume and seek when no clip is playing at the current position are `.skipped`.
    /// - Throws: `PlayerWindowError` from a move (position out of range, window not running).
    public func apply(_ command: PlayerCommand, now: ContinuousClock.Instant = .now) async throws(PlayerWindowError) -> PlayOutcome {
        if case .move(let move) = command {
            let before = await window.slots.current
            let slots = try await window.move(move)
            if slots.current != before { isPaused = false }
            return .moved(slots)
        }
        let position = await window.slots.current
        let player = await window.state(at: position).player
        let noClip = PlayOutcome.skipped(reason: "no clip is playing")
        switch command {
        case .move:
            preconditionFailure("moves are handled above")
        case .pause:
            guard let player else { return noClip }
            player.pause()
            isPaused = true
            return .paused(time: player.time)
        case .resume:
            guard let player else { return noClip }
            player.play()
            isPaused = false
            return .resumed(time: player.time)
        case .seek(let seconds):
            guard let player else { return noClip }
            do throws(MediaError) {
                try player.seek(by: seconds, now: now)
                return .seeked(time: player.time)
            } catch {
                return .failed(reason: error.description)
            }
        case .mute:
            isMuted.toggle()
            return isMuted ? .muted : .unmuted
        case .unmute:
            isMuted = false
            return .unmuted
        case .like, .bookmark:
            if let reason = await mark(command, position) { return .failed(reason: reason) }
            return command == .like ? .liked : .bookmarked
        case .autoAdvance:
            autoAdvance.toggle()
            return .autoAdvance(autoAdvance)
        case .quit:
            return .quit
        }
    }
}
