import FeedCore
import Foundation
import Synchronization

/// The live streams this server ingests now: one ``LiveChannel`` per stream, at most one
/// publisher each. Another server sharing the catalog has its own hub (and its own publishers).
final class LiveHub: Sendable {
    /// How parts and segments are cut.
    let options: LiveSegmenterOptions
    /// The longest a blocking request is held.
    let hold: Duration
    /// Where the rooms read comments and states.
    let store: any LiveStreamStore
    /// Seconds between a room's ticks.
    let tick: Duration
    private let channels = Mutex<[Int64: LiveChannel]>([:])
    private let rooms = Mutex<[Int64: LiveRoom]>([:])

    init(options: LiveSegmenterOptions, hold: Duration, store: any LiveStreamStore, tick: Duration = .seconds(1)) {
        self.options = options
        self.hold = hold
        self.store = store
        self.tick = tick
    }

    /// Stream `id`'s room (its viewers, hearts and watchers), made on first use.
    func room(_ id: Int64) -> LiveRoom {
        rooms.withLock { rooms in
            if let room = rooms[id] { return room }
            let room = LiveRoom(streamID: id, store: store, interval: tick) { [weak self] in self?.channel(id)?.liveEdge }
            rooms[id] = room
            return room
        }
    }

    /// A new channel for stream `id`, or nil when it already has a publisher here.
    func open(_ id: Int64, started: Date) throws(LivePackagingError) -> LiveChannel? {
        let channel = try LiveChannel(streamID: id, options: options, started: started, hold: hold)
        return channels.withLock { channels in
            if let current = channels[id], !current.ended { return nil }
            channels[id] = channel
            return channel
        }
    }

    /// Stream `id`'s channel: the one publishing, or the last one to have (until the stream is
    /// published again), so players see its end.
    func channel(_ id: Int64) -> LiveChannel? { channels.withLock { $0[id] } }

    /// Ends stream `id`'s channel here, if it has one (its publisher is disconnected).
    func end(_ id: Int64) {
        channel(id)?.finish()
    }

    /// Ends every channel (the server stops).
    func endAll() {
        for channel in channels.withLock({ Array($0.values) }) { channel.finish() }
    }
}
