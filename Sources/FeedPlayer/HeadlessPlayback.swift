import FeedCore
/// A `feed play` session without a terminal: a ``PlayerWindow`` of ``MediaClipPlayer``s
/// driven by a script through a ``PlayController`` (as the terminal screen is by keys),
/// reporting every window event, what each step did, and the first frame shown after each move.
///
/// Each step runs, then the session waits until the window has settled (the current item
/// shown, neighbours prepared) before the next one, so a `next` always finds a prepared
/// neighbour and a far `to:N` always opens cold. A clip that fails to open is reported as a
/// `failed` record and the session goes on.
public struct HeadlessPlayback: Sendable {
    /// One clip of the session.
    public struct Item: Sendable, Equatable {
        /// The id shown in records (a feed video id or a roll recording id).
        public var id: String
        /// The file or URL to play; nil when the item has no video (it fails to open).
        public var location: MediaLocation?

        /// The path or URL to play, as text.
        public var source: String? { location?.source }

        /// An item playing `location` (a feed video's, from ``Feed/location(of:)``).
        public init(id: String, location: MediaLocation?) {
            self.id = id
            self.location = location
        }

        /// An item playing a path or URL given as text (``MediaLocation/init(argument:)``).
        public init(id: String, source: String?) {
            self.init(id: id, location: source.map(MediaLocation.init(argument:)))
        }
    }

    /// One line of the session's report.
    public struct Record: Sendable, Equatable, Codable {
        /// Window events: `moved`, `loaded`, `prepared`, `first_frame`, `frame`, `evicted`,
        /// `cancelled`, `failed`. Script steps on the current clip: `paused`, `resumed`, `seeked`,
        /// `muted`, `unmuted`, `liked`, `bookmarked`, or `skipped` (no clip playing there).
        public var event: String
        /// The feed position concerned.
        public var position: Int
        /// The id at `position`.
        public var id: String
        /// For `moved`: the position before the move (nil at the start).
        public var from: Int?
        /// The ids of the live players after the event, in feed order.
        public var live: [String]
        /// The ids in the slots after the event: previous, current, next (nil for an empty slot).
        public var slots: [String?]
        /// For `first_frame`: milliseconds from the move to the frame being ready, to the microsecond.
        public var firstFrameMs: Double?
        /// For `first_frame`: whether the item was a prepared neighbour at the move.
        public var prepared: Bool?
        /// For `frame`, `paused`, `resumed` and `seeked`: the clip time of the frame shown, seconds.
        public var time: Double?
        /// For `frame`: the frame's size in pixels.
        public var width: Int?
        /// For `frame`: the frame's height in pixels.
        public var height: Int?
        /// For `failed` and `skipped`: why.
        public var message: String?

        enum CodingKeys: String, CodingKey {
            case event, position, id, from, live, slots, prepared, time, width, height, message
            case firstFrameMs = "first_frame_ms"
        }
    }

    /// The clips, in feed order.
    public var items: [Item]
    /// How each player opens and scales its clip.
    public var options: MediaClipPlayer.Options
    /// Whether `next` after the last item goes back to the first.
    public var wrap: Bool
    /// Where remote clips are fetched before they are opened (nil: streamed).
    public var fetcher: (any ClipFetcher)?

    /// A session over `items`; `fetcher` (a clip cache) turns remote clips into local files.
    public init(items: [Item], options: MediaClipPlayer.Options, wrap: Bool = false, fetcher: (any ClipFetcher)? = nil) {
        self.items = items
        self.options = options
        self.wrap = wrap
        self.fetcher = fetcher
    }

    /// Starts at `start`, runs `commands` through a ``PlayController``, closes the window, and
    /// calls `report` with each record in order (from one task at a time). `like` and
    /// `bookmark` go to `command` with the current position, for the caller to persist; it
    /// returns nil when done, else why not (the step is then reported as `failed` with that
    /// message).
    /// - Throws: `PlayerWindowError` (empty feed, bad position).
    public func run(start: Int = 0, commands: [PlayerCommand],
                    command: @escaping PlayController<MediaClipPlayer>.Marker = { _, _ in nil },
                    report: @escaping @Sendable (Record) async -> Void) async throws(PlayerWindowError) {
        let items = items, options = options, fetcher = fetcher
        let window = try PlayerWindow<MediaClipPlayer>(count: items.count, wrap: wrap) { position in
            guard let location = items[position].location else {
                throw MediaError.missingFile(path: "video \(items[position].id) has no video URL")
            }
            return MediaClipPlayer(location: location, options: options, fetcher: fetcher)
        }
        let shown = FirstFrameCount()
        let reporter = Task {
            for await event in window.events {
                await report(Self.record(event, items: items))
                if case .firstFrame(let position, _, _) = event.kind,
                   let player = await window.state(at: position).player {
                    var record = Self.record(event, items: items)
                    record.event = "frame"
                    record.firstFrameMs = nil
                    record.prepared = nil
                    player.withFrame { frame in
                        record.time = frame.time
                        record.width = frame.width
                        record.height = frame.height
                    }
                    await report(record)
                }
                if case .firstFrame = event.kind { await shown.increment() }
            }
        }
        // The reporter reads each first frame from the window's player, so before the next
        // step the session waits until it has: a later move could close that player.
        var expected = 0
        func settled(moved: Bool) async {
            _ = await window.current()
            await window.settle()
            if moved, case .ready = await window.state(at: window.slots.current) { expected += 1 }
            await shown.wait(for: expected)
        }
        let controller = PlayController(window: window, mark: command)
        do {
            try await window.start(at: start)
            await settled(moved: true)
            for step in commands {
                let current = await window.slots.current
                let outcome = try await controller.apply(step)
                // Moves are reported by the window; every other step by what it did.
                if let (event, time, message) = Self.step(outcome) {
                    var record = Record(event: event, position: current, id: items[current].id,
                                        live: await window.livePositions.map { items[$0].id },
                                        slots: await window.slots.ids(items))
                    record.time = time
                    record.message = message
                    await report(record)
                }
                await settled(moved: await window.slots.current != current)
            }
        } catch {
            await window.close()
            await reporter.value
            throw error
        }
        await window.close()
        await reporter.value
    }

    /// The record of a step on the current clip: event, clip time, message; nil for a move.
    private static func step(_ outcome: PlayOutcome) -> (event: String, time: Double?, message: String?)? {
        switch outcome {
        case .moved, .autoAdvance, .quit: nil
        case .paused(let time): ("paused", time, nil)
        case .resumed(let time): ("resumed", time, nil)
        case .seeked(let time): ("seeked", time, nil)
        case .muted: ("muted", nil, nil)
        case .unmuted: ("unmuted", nil, nil)
        case .liked: ("liked", nil, nil)
        case .bookmarked: ("bookmarked", nil, nil)
        case .skipped(let reason): ("skipped", nil, reason)
        case .failed(let reason): ("failed", nil, reason)
        }
    }

    private static func record(_ event: PlayerWindowEvent, items: [Item]) -> Record {
        var record = Record(event: "", position: 0, id: "", live: event.live.map { items[$0].id }, slots: event.slots.ids(items))
        switch event.kind {
        case .moved(let from, let to):
            record.event = "moved"; record.position = to; record.from = from
        case .loaded(let position):
            record.event = "loaded"; record.position = position
        case .prepared(let position):
            record.event = "prepared"; record.position = position
        case .firstFrame(let position, let elapsed, let wasPrepared):
            record.event = "first_frame"; record.position = position
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) * 1e-15
            // To the microsecond: finer digits are clock noise and only make the JSON harder to read.
            record.firstFrameMs = (ms * 1000).rounded() / 1000
            record.prepared = wasPrepared
        case .evicted(let position):
            record.event = "evicted"; record.position = position
        case .cancelled(let position):
            record.event = "cancelled"; record.position = position
        case .failed(let position, let message):
            record.event = "failed"; record.position = position; record.message = message
        }
        record.id = items[record.position].id
        return record
    }
}

/// How many first frames the reporter has written, for the session to wait on.
private actor FirstFrameCount {
    private var count = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func increment() {
        count += 1
        let ready = waiters.filter { $0.0 <= count }
        waiters.removeAll { $0.0 <= count }
        for waiter in ready { waiter.1.resume() }
    }

    func wait(for target: Int) async {
        guard count < target else { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }
}

private extension PlayerSlots {
    /// The ids in the slots: previous, current, next (nil for an empty slot).
    func ids(_ items: [HeadlessPlayback.Item]) -> [String?] {
        [previous, current, next].map { $0.map { items[$0].id } }
    }
}
