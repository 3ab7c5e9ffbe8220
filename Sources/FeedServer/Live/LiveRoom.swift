import FeedCore
import Foundation

/// The room around one live stream on this server: its viewers (distinct callers that fetched
/// its playlist within ``viewerWindow``), its hearts (each caller at most ``heartsPerSecond`` a
/// second) and the event streams of its watchers.
///
/// The figures go through the catalog, so every server sharing it shows the same: ``flush()``
/// (every keeper tick) adds the hearts taken here to the stream's row and, while the stream
/// plays here, writes the viewer count when it changed. One poller per room, running while
/// anyone watches, ticks every ``interval``: it reads the comments posted since the last tick and
/// the stream's row (its state, its hearts, the viewers its packaging server counted), and sends
/// what changed to every watcher: the hearts sent since the last tick, through any server, as
/// one event. A watcher gets the state and the viewer count first.
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
    /// Whether the stream plays on this server (its viewers are counted here).
    let playsHere: @Sendable () -> Bool

    private struct State {
        var viewers: [String: Date] = [:]
        /// Hearts taken here, not yet added to the catalog.
        var pendingHearts = 0
        /// The viewer count last written to the catalog.
        var writtenViewers: Int?
        var heartsBy: [String: (second: Int64, count: Int)] = [:]
        var watchers: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var nextWatcher = 0
        var polling = false
        var lastState: LiveStream.State?
        var lastViewers: Int?
    }

    private let state = Locked(State())

    init(streamID: Int64, store: any LiveStreamStore, interval: Duration = .seconds(1), viewerWindow: TimeInterval = 10,
         now: @escaping @Sendable () -> Date = { Date() }, edge: @escaping @Sendable () -> Date?,
         playsHere: @escaping @Sendable () -> Bool) {
        self.streamID = streamID
        self.store = store
        self.interval = interval
        self.viewerWindow = viewerWindow
        self.now = now
        self.edge = edge
        self.playsHere = playsHere
    }

    /// Counts `client` as a viewer from now on (a playlist fetch).
    func saw(_ client: String) {
        let time = now()
        state.withLock { $0.viewers[client] = time }
    }

    /// The viewers now, as counted here.
    var viewers: Int {
        let cutoff = now().addingTimeInterval(-viewerWindow)
        return state.withLock { $0.viewers.values.count { $0 > cutoff } }
    }

    /// The viewers to show with `row` (the stream as the catalog has it): this server's count
    /// while the stream plays here, else the count its packaging server wrote (0 unless active).
    func shownViewers(_ row: LiveStream?) -> Int {
        if playsHere() { return viewers }
        guard let row, row.state == .active else { return 0 }
        return row.viewers
    }

    /// Adds the hearts taken here since the last flush to the catalog (kept for the next flush
    /// when the catalog fails) and, while the stream plays here, writes the viewer count when it
    /// changed; forgets callers gone past the viewer window, and past this second's heart limit.
    /// Run every keeper tick.
    func flush() async {
        let cutoff = now().addingTimeInterval(-viewerWindow), second = Int64(now().timeIntervalSince1970)
        let (hearts, count) = state.withLock { state -> (Int, Int) in
            state.viewers = state.viewers.filter { $0.value > cutoff }
            state.heartsBy = state.heartsBy.filter { $0.value.second >= second }
            defer { state.pendingHearts = 0 }
            return (state.pendingHearts, state.viewers.count)
        }
        if hearts > 0 {
            do throws(RollError) { try await store.addLiveHearts(stream: streamID, count: hearts) } catch {
                state.withLock { $0.pendingHearts += hearts }
            }
        }
        guard playsHere(), state.withLock({ $0.writtenViewers != count }) else { return }
        if (try? await store.setLiveViewers(stream: streamID, count: count)) != nil {
            state.withLock { $0.writtenViewers = count }
        }
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
            state.pendingHearts += count
            return true
        }
    }

    /// A new watcher's events, starting with `current` (the stream's state) and the viewer
    /// count; the stream ends when the watcher's task is cancelled.
    func watch(current row: LiveStream) -> AsyncStream<LiveEvent> {
        let current = row.state
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(256))
        continuation.yield(.state(current))
        continuation.yield(.viewers(shownViewers(row)))
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
        var lastHearts = (try? await store.liveStream(id: streamID))?.hearts
        var quiet = 0
        while true {
            try? await Task.sleep(for: interval)
            var events: [LiveEvent] = []
            if let comments = try? await store.liveComments(stream: streamID, after: lastComment, limit: 200) {
                events += comments.map(LiveEvent.comment)
                lastComment = comments.last?.id ?? lastComment
            }
            let row = try? await store.liveStream(id: streamID)
            let count = shownViewers(row), streamTime = edge()
            var hearts = 0
            if let total = row?.hearts {
                if let lastHearts, total > lastHearts { hearts = Int(clamping: total - lastHearts) }
                lastHearts = total
            }
            let watchers = state.withLock { state -> [AsyncStream<LiveEvent>.Continuation]? in
                if let current = row?.state, current != state.lastState {
                    state.lastState = current
                    events.append(.state(current))
                }
                if hearts > 0 { events.append(.heart(count: hearts, streamTime: streamTime)) }
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
