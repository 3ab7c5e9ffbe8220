import Foundation

/// How much each event says a viewer wants a video: watch time and completion first (the
/// signals TikTok publishes as the strongest), then shares, likes, bookmarks, comments and
/// follows; skips and "not interested" count against it. Older events count less (a half-life).
public enum InteractionWeight {
    /// The weight of one event, before its age is taken into account.
    public static func value(_ type: EventType, watchedMs: Int64?, durationMs: Int64?) -> Float {
        switch type {
        case .impression: 0
        case .watch:
            watch(ratio: ratio(watchedMs: watchedMs, durationMs: durationMs))
        case .complete: 0.5
        case .replay: 0.5
        case .skip: -0.4
        case .like: 0.6
        case .share: 0.8
        case .bookmark: 0.6
        case .comment: 0.5
        case .follow: 0.5
        case .notInterested: -3
        case .hideCreator: -3
        }
    }

    /// The weight of a watch of `ratio` of the video: up to 1 for one whole play, a third more
    /// for each play beyond it (at most three plays count).
    static func watch(ratio: Double) -> Float {
        let r = min(max(ratio, 0), 3)
        return Float(min(r, 1) + 0.3 * max(0, r - 1))
    }

    /// How much of the video played: watched over its length, or, with no length, as if it
    /// were 15 s long.
    public static func ratio(watchedMs: Int64?, durationMs: Int64?) -> Double {
        let watched = Double(watchedMs ?? 0)
        if let duration = durationMs, duration > 0 { return watched / Double(duration) }
        return min(watched / 15_000, 1)
    }

    /// How much an event `age` seconds old still counts, with a half-life of `halfLife` seconds.
    public static func decay(age: Double, halfLife: Double) -> Float {
        Float(exp2(-max(0, age) / halfLife))
    }

    /// An event's weight at `now`.
    public static func weight(_ event: StoredEvent, now: Double, halfLife: Double) -> Float {
        value(event.type, watchedMs: event.watchedMs, durationMs: event.durationMs) * decay(age: now - event.at, halfLife: halfLife)
    }
}
