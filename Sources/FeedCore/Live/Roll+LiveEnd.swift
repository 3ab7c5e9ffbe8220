import Foundation

extension Roll {
    /// Ends live stream `id` for good (``LiveStreams/ending(id:)``) and, when this call ended it,
    /// queues `live.ended` for every webhook endpoint: `DELETE /live/{id}`, `feed live end` and a
    /// reconnect window running out alike, so the event is told once whoever ends the stream. The
    /// server packaging it sees the row and disconnects the publisher. `clock` gives `ended_at`.
    /// - Returns: the stream, whether this call ended it, and why `live.ended` was not queued
    ///   when the catalog refused it (the stream has ended all the same).
    /// - Throws: ``LiveError/notFound(id:)``, ``LiveError/roll(_:)``.
    public func endLiveStream(id: Int64, clock: @escaping @Sendable () -> Date = { Date() })
        async throws(LiveError) -> (stream: LiveStream, endedNow: Bool, notQueued: RollError?) {
        let (ended, changed) = try await LiveStreams(store: catalog, clock: clock).ending(id: id)
        guard changed else { return (ended, false, nil) }
        do throws(RollError) { try await emit(.live(.liveEnded, ended)) } catch { return (ended, true, error) }
        return (ended, true, nil)
    }
}
