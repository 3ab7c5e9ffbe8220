/// A viewer's recent events as the ranking reads them: how much they want each video they
/// reacted to (newer events counting more), and what they were shown lately.
struct ViewerHistory: Sendable {
    /// Wish by video: positive for watched, liked, shared; negative for skipped.
    var wants: [Int64: Float] = [:]
    /// Videos shown (any event) since the seen window began, with the latest time.
    var seen: [Int64: Double] = [:]

    /// Half-life of a wish at serving time: a week, so that today's swipes steer tomorrow.
    static let halfLife: Double = 7 * 86400

    /// The history of `events` (newest first) at `now`; shown counts from `seenSince` on.
    init(_ events: [StoredEvent], now: Double, seenSince: Double) {
        for event in events {
            let weight = InteractionWeight.weight(event, now: now, halfLife: Self.halfLife)
            if weight != 0 { wants[event.video, default: 0] += weight }
            if event.at >= seenSince { seen[event.video] = max(seen[event.video] ?? 0, event.at) }
        }
    }

    /// The `count` videos most wanted (positive), most first.
    func mostWanted(_ count: Int) -> [(video: Int64, weight: Float)] {
        wants.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key > $1.key }.prefix(count)
            .map { ($0.key, $0.value) }
    }

    /// Whether there is anything to learn from.
    var isEmpty: Bool { wants.isEmpty }
}
