import FeedCore
import Foundation
import Synchronization

/// The room around one live stream on this server: its viewers (distinct callers that fetched
/// its playlist within ``viewerWindow``), its hearts (summed per tick, each caller at most
/// ``heartsPerSecond`` a second) and the event streams of its watchers.
///
/// One poller per room, running while anyone watches, ticks every ``interval``: it reads the
/// comments posted since the last tick and the stream's state from the catalog (so comments
/// posted to another server sharing it arrive too), takes the hearts, counts the viewers, and
/// sends what changed to every watcher. A watcher gets the state and the viewer count first.
final class LiveRoom: Sendable {
    let streamID: Int64
    let store: any LiveStreamStore
    /// Seconds between ticks.
    let interval: Duration
    /// How long a playlist fetch counts its caller as a viewer.
    let viewerWindow: TimeInterval
    /// The most hearts a caller may send a second.
    static let heartsPerSecond = 10
    /// Ticks without news before a keep-alive line.
    static let keepAliveTicks = 15
    let now: @Sendable () -> Date
    /// The stream's time at its live edge on this server, when it plays here.
    let edge: @Sendable () -> Date?

    private struct State {
        var viewers: [String: Date] = [:]
        var hearts = 0
        var heartsBy: [String: (second: Int64, count: Int)] = [:]
        var watchers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var nextWatcher = 0
        var polling = false
        var lastState: LiveStream.State?
        var lastViewers: Int?
    }

    private let state = Mutex(State())

    init(streamID: Int64, store: any LiveStreamStore, interval: Duration = .seconds(1), viewerWindow: TimeInterval = 10,
         now: @escaping @Sendable () -> Date = { Date() }, edge: @escaping @Sendable () -> Date?) {
        self.streamID = streamID
        self.store = store
        self.interval = interval
        self.viewerWindow = viewerWindow
        self.now = now
        self.edge = edge
    }

    /// Counts `client` as a viewer from now on (a playlist fetch).
    func saw(_ client: String) {
        let time = now()
        state.withLock { $0.viewers[client] = time }
    }

    /// The viewers now.
    var viewers: Int {
        let cutoff = now().addingTimeInterval(-viewerWindow)
        return state.withLock { $0.viewers.values.count { $0 > cutoff } }
    }

    /// Takes `count` hearts from `client`; false (none taken) when that would pass its
    /// ``heartsPerSecond`` this second.
    func hearts(_ count: Int, from client: String) -> Bool {
        let second = Int64(now().timeIntervalSince1970)
        return state.withLock { state in
            var mine: (second: Int64, count: Int) = state.heartsBy[client].flatMap { $0.second == second ? $0 : nil } ?? (second, 0)
            guard mine.count + count <= Self.heartsPerSecond else { return false }
            mine.count += count
            state.heartsBy[client] = mine
            state.hearts += count
            return true
        }
    }

    /// A new watcher's events, starting with `current` (the stream's state) and the viewer
    /// count; the stream ends when the watcher's task is cancelled.
    func watch(current: LiveStream.State) -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(256))
        continuation.yield(.state(current))
        continuation.yield(.viewers(viewers))
        let (id, start) = state.withLock { state -> (Int, Bool) in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            if state.lastState == nil { state.lastState = current }
            let start = !state.polling
            state.polling = true
            return (state.nextWatcher, start)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
        }
        if start { Task { await self.poll() } }
        return stream
    }

    /// Ticks while anyone watches.
    private func poll() async {
        var lastComment = await latestCommentID()
        var quiet = 0
        while true {
            try? await Task.sleep(for: interval)
            var events: [LiveEvent] = []
            if let comments = try? await store.liveComments(stream: streamID, after: lastComment, limit: 200) {
                events += comments.map(LiveEvent.comment)
                lastComment = comments.last?.id ?? lastComment
            }
            let row = try? await store.liveStream(id: streamID)
            let count = viewers, streamTime = edge()
            let watchers = state.withLock { state -> [AsyncStream<LiveEvent>.Continuation]? in
                if let current = row?.state, current != state.lastState {
                    state.lastState = current
                    events.append(.state(current))
                }
                if state.hearts > 0 {
                    events.append(.heart(count: state.hearts, streamTime: streamTime))
                    state.hearts = 0
                }
                if count != state.lastViewers {
                    state.lastViewers = count
                    events.append(.viewers(count))
                }
                guard !state.watchers.isEmpty else {
                    state.polling = false
                    return nil
                }
                return Array(state.watchers.values)
            }
            guard let watchers else { return }
            quiet = events.isEmpty ? quiet + 1 : 0
            if quiet >= Self.keepAliveTicks {
                events.append(.keepAlive)
                quiet = 0
            }
            for watcher in watchers { for event in events { watcher.yield(event) } }
        }
    }

    /// The newest comment's id when watching starts: only what comes after is news.
    private func latestCommentID() async -> Int64 {
        (try? await store.liveComments(stream: streamID, before: nil, limit: 1))?.first?.id ?? 0
    }

    /// Ends every watcher's event stream (the server stops): their responses end, rather than
    /// being cut, and nothing of theirs outlives the server.
    func close() {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.finish() }
    }
}
