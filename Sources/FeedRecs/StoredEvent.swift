/// An event as the catalog gives it back to the ranking and the trainer: whose it is, what
/// happened to which video, and when (seconds since 1970).
public struct StoredEvent: Sendable, Equatable {
    /// The actor's catalog key (``EventActor/key``): `u:NAME` or `d:ID`.
    public var actor: String
    /// What happened.
    public var type: EventType
    /// The video.
    public var video: Int64
    /// When, in seconds since 1970.
    public var at: Double
    /// For `watch`: milliseconds played.
    public var watchedMs: Int64?
    /// For `watch`: the video's length in milliseconds.
    public var durationMs: Int64?

    /// A stored event.
    public init(actor: String, type: EventType, video: Int64, at: Double, watchedMs: Int64? = nil, durationMs: Int64? = nil) {
        self.actor = actor
        self.type = type
        self.video = video
        self.at = at
        self.watchedMs = watchedMs
        self.durationMs = durationMs
    }

    /// The event as stored, from what a client sent: its time, or `now` when it named none.
    public init(_ event: FeedEvent, actor: EventActor, now: Double) {
        self.init(actor: actor.key, type: event.type, video: event.video, at: event.at?.timeIntervalSince1970 ?? now,
                  watchedMs: event.watchedMs, durationMs: event.durationMs)
    }
}
