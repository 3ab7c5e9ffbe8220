import FeedRecs
import Synchronization

/// What `GET /metrics` says of For You beside the model: events accepted and duplicates since
/// the server started, and plays counted.
final class RecsCounters: Sendable {
    private let acceptedEvents = Atomic<Int>(0)
    private let duplicateEvents = Atomic<Int>(0)
    private let countedPlays = Atomic<Int>(0)

    /// Counts one stored batch.
    func accepted(_ outcome: FeedRecs.EventOutcome) {
        acceptedEvents.add(outcome.accepted, ordering: .relaxed)
        duplicateEvents.add(outcome.duplicates, ordering: .relaxed)
        countedPlays.add(outcome.plays, ordering: .relaxed)
    }

    var accepted: Int { acceptedEvents.load(ordering: .relaxed) }
    var duplicates: Int { duplicateEvents.load(ordering: .relaxed) }
    var plays: Int { countedPlays.load(ordering: .relaxed) }
}
