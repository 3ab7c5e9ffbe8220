/// What one event says happened on a client, as `POST /events` names it. Each is a signal the
/// For You ranking learns from (``InteractionWeight``); none of them changes a like, a follow
/// or a comment (those are their own routes), except that each `watch` is one play of the
/// video (its `views`).
public enum EventType: String, Sendable, CaseIterable, Codable {
    /// The video was shown on screen.
    case impression
    /// The video played: `watched_ms` of its `duration_ms`. One per play, sent when it leaves
    /// the screen; each counts once in the post's `views`.
    case watch
    /// The video played to its end.
    case complete
    /// The video started again after its end.
    case replay
    /// The viewer left within 2 s.
    case skip
    /// The viewer liked it.
    case like
    /// The viewer shared it.
    case share
    /// The viewer bookmarked it.
    case bookmark
    /// The viewer commented on it.
    case comment
    /// The viewer followed its creator from it.
    case follow
    /// "Not interested": the video never comes back in this viewer's For You.
    case notInterested = "not_interested"
    /// "Hide this creator": none of the creator's videos comes back in this viewer's For You.
    case hideCreator = "hide_creator"
}
