import FeedCore
import Foundation

/// The live streams this server ingests now: one ``LiveChannel`` per stream, at most one
/// publisher each. Another server sharing the catalog has its own hub (and its own publishers).
///
/// A channel ends for good in one place, ``finish(_:)``: its owner ended the stream, or its
/// publisher stayed away past the reconnect window (``sweep(now:)``), or the row was ended by
/// another server. Its recording is then made (``LiveRecordings/finish(_:)``) off the caller's
/// task. When the server stops, ``endAll()`` ends the playlists but leaves the recordings to the
/// next start's ``LiveRecordings/recover()``, so a stop never waits on a long stream's copy.
final class LiveHub: Sendable {
    /// How parts and segments are cut.
    let options: LiveSegmenterOptions
    /// The longest a blocking request is held.
    let hold: Duration
    /// Where the rooms read comments and states.
    let store: any LiveStreamStore
    /// Seconds between a room's ticks.
    let tick: Duration
    /// How long a channel whose publisher went waits for it to come back.
    let reconnectWindow: TimeInterval
    /// How streams end and become recordings (nil: a hub without a roll, in tests).
    let recordings: LiveRecordings?
    private let channels = Locked<[Int64: LiveChannel]>([:])
    private let rooms = Locked<[Int64: LiveRoom]>([:])
    /// Recordings being made now, so a test (or a stop) can wait for them.
    private let finishing = Locked<[Int64: Task<Void, Never>]>([:])

    init(options: LiveSegmenterOptions, hold: Duration, store: any LiveStreamStore, tick: Duration = .seconds(1),
         reconnectWindow: TimeInterval = 60, recordings: LiveRecordings? = nil) {
        self.options = options
        self.hold = hold
        self.store = store
        self.tick = tick
        self.reconnectWindow = reconnectWindow
        self.recordings = recordings
    }

    /// Stream `id`'s room (its viewers, hearts and watchers), made on first use.
    func room(_ id: Int64) -> LiveRoom {
        rooms.withLock { rooms in
            if let room = rooms[id] { return room }
            let room = LiveRoom(streamID: id, store: store, interval: tick, edge: { [weak self] in self?.channel(id)?.liveEdge },
                                playsHere: { [weak self] in self?.channel(id).map { !$0.ended } ?? false })
            rooms[id] = room
            return room
        }
    }

    /// A new channel for stream `id` (owned by `owner`) recorded into `recorder`, or nil when it
    /// already has one here that has not ended.
    func open(_ id: Int64, owner: String?, started: Date, recorder: LiveRecordingFile?) throws(LivePackagingError) -> LiveChannel? {
        let channel = try LiveChannel(streamID: id, owner: owner, options: options, started: started, hold: hold, recorder: recorder)
        return channels.withLock { channels in
            if let current = channels[id], !current.ended { return nil }
            channels[id] = channel
            return channel
        }
    }

    /// Stream `id`'s channel: the one publishing, or the last one to have (until the stream is
    /// published again), so players see its end.
    func channel(_ id: Int64) -> LiveChannel? { channels.withLock { $0[id] } }

    /// The channels that have not ended.
    var live: [LiveChannel] { channels.withLock { $0.values.filter { !$0.ended } } }

    /// Ends stream `id`'s channel here for good, if it has one (its publisher is disconnected),
    /// and makes its recording. Returns false when there was none to end here.
    @discardableResult
    func finish(_ id: Int64) -> Bool {
        guard let channel = channel(id), !channel.ended else { return false }
        channel.finish()
        guard let recordings else { return true }
        let cutShort = channel.recordingError
        let task = Task { [weak self] in
            await recordings.finish(id, cutShort: cutShort)
            _ = self?.finishing.withLock { $0.removeValue(forKey: id) }
        }
        finishing.withLock { $0[id] = task }
        return true
    }

    /// Ends the channels whose publisher has been gone longer than the reconnect window, and
    /// those whose row another server ended. Run every tick by ``LiveKeeper``.
    /// - Returns: the ids ended.
    @discardableResult
    func sweep(now: Date) async -> [Int64] {
        var ended: [Int64] = []
        for channel in live {
            let id = channel.streamID
            if let gone = channel.detachedAt, now.timeIntervalSince(gone) >= reconnectWindow {
                await recordings?.end(id)
                if finish(id) { ended.append(id) }
            } else if (try? await store.liveStream(id: id))?.state == .ended {
                if finish(id) { ended.append(id) }
            }
        }
        return ended
    }

    /// Waits for the recordings being made now (the server stops after them, so their blocking
    /// work never outlives its pool).
    func settle() async {
        for task in finishing.withLock({ Array($0.values) }) { await task.value }
    }

    /// Ends every channel's playlist and every room's event streams (the server stops); the
    /// recordings wait for the next start.
    func endAll() {
        for channel in channels.withLock({ Array($0.values) }) { channel.finish() }
        closeRooms()
    }

    /// Every room's ``LiveRoom/flush()``: their hearts and viewer counts into the catalog. Run
    /// every tick by ``LiveKeeper``, and once more when it stops.
    func flushRooms() async {
        for room in rooms.withLock({ Array($0.values) }) { await room.flush() }
    }

    /// Ends every room's event streams (the server stops): their responses complete.
    func closeRooms() {
        for room in rooms.withLock({ Array($0.values) }) { room.close() }
    }
}
