import FeedCore
/// One playable clip as the ``PlayerWindow`` sees it: opened by the window's factory,
/// prepared (media opened, first frame decoded), played while it is the current item,
/// paused while it waits as a neighbour, and closed when it leaves the window.
///
/// The window calls `play`, `pause` and `close` on its own actor, so they must return
/// quickly (flip a flag, signal a decode task). `prepare` runs off the actor and should
/// honour task cancellation (check `Task.isCancelled` between decode steps): a load the
/// user swiped past is cancelled, and until `prepare` returns its player still counts
/// against the window's three live players.
public protocol ClipPlayer: AnyObject, Sendable {
    /// Opens what is left to open and decodes the first frame, so `play` can show it at once.
    /// Throws if the clip cannot be played; throws `CancellationError` (or anything) when cancelled.
    func prepare() async throws
    /// Starts or resumes playback. Called only after `prepare` succeeded.
    func play()
    /// Pauses playback, keeping the decoded frame. Called when the clip stops being current.
    func pause()
    /// Releases everything the player holds. Called exactly once, last.
    func close()
}
