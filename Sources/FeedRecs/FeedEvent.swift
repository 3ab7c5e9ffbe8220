import Foundation

/// One event a client sent (`POST /events`) or a file held (`feed events import`): what was
/// done with which video, and when.
public struct FeedEvent: Sendable, Equatable {
    /// The client's id for it, unique per sender: a retried batch repeats its ids, and an id seen
    /// before from the same sender is counted once.
    public var id: String
    /// What happened.
    public var type: EventType
    /// The video's id (a post's, or a `--feed` file's).
    public var video: Int64
    /// When it happened; nil: when it was received.
    public var at: Date?
    /// For `watch`: how long it played, in milliseconds.
    public var watchedMs: Int64?
    /// For `watch`: the video's length, in milliseconds, as the player knew it.
    public var durationMs: Int64?
    /// The device that sent it, for a client with no user (and, from a user, the device that
    /// signs in: its history joins theirs).
    public var device: String?
    /// Whose event it is, named in the event itself: only in a file that `feed events import`
    /// reads (a request's events are its caller's).
    public var user: String?

    /// An event.
    public init(id: String, type: EventType, video: Int64, at: Date? = nil, watchedMs: Int64? = nil, durationMs: Int64? = nil,
                device: String? = nil, user: String? = nil) {
        self.id = id
        self.type = type
        self.video = video
        self.at = at
        self.watchedMs = watchedMs
        self.durationMs = durationMs
        self.device = device
        self.user = user
    }

    /// How much of the video played, 0… (more than 1 when it played more than once); nil when
    /// this is no `watch` or its length is unknown.
    public var watchRatio: Double? {
        guard type == .watch, let watched = watchedMs, let duration = durationMs, duration > 0 else { return nil }
        return Double(watched) / Double(duration)
    }
}
