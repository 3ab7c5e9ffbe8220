import FeedCore
/// A ``ClipPlayer`` that a ``PlayController`` can pause, resume and seek: what the viewer's
/// commands need beyond what the ``PlayerWindow`` does to it.
public protocol ControllablePlayer: ClipPlayer {
    /// The clip time of the frame shown, in seconds.
    var time: Double { get }
    /// Moves by `seconds` (negative: back), clamped to the clip, and shows the frame there;
    /// `now` anchors the player's clock.
    /// - Throws: `MediaError` when seeking or decoding fails.
    func seek(by seconds: Double, now: ContinuousClock.Instant) throws(MediaError)
}
