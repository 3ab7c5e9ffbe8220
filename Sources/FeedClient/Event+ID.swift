import Foundation

extension Components.Schemas.Event {
    /// An event of `type` with `video`, given a new id when it is made (a UUID): every send of it,
    /// a retry included, carries that id, so the server stores it once (`POST /events` counts it
    /// in `duplicates` after the first). `at` is now unless given; `watchedMs` is required for
    /// `.watch` (how long it played), with `durationMs` the video's length as the player knew it.
    ///
    /// ```swift
    /// await events.send(.init(.watch, video: post.id, watchedMs: 8_200, durationMs: 12_000))
    /// ```
    public init(_ type: Components.Schemas.EventType, video: Int64, at: Date = Date(), watchedMs: Int? = nil,
                durationMs: Int? = nil, device: String? = nil) {
        self.init(id: UUID().uuidString.lowercased(), _type: type, video: video, at: at, watchedMs: watchedMs,
                  durationMs: durationMs, device: device)
    }
}
