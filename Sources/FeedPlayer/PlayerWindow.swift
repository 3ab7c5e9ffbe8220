import FeedCore
/// The three live slots of a vertical feed: the previous, current and next items, each
/// held by a player, everything else released.
///
/// The window knows only positions `0..<count`; ids are for display (map a position to
/// `feed.videos[position].id`). After `start(at:)` it loads the current item, and once that
/// is ready (or has failed) it prepares the neighbours while the current one plays, so a
/// move to a neighbour shows its first frame at once. A move keeps what the new window
/// shares with the old one, evicts the rest (closing its players, cancelling its loads) and
/// loads what is missing. A load evicted while in flight never lands in a slot.
///
/// At most three players are open at any time, whatever the feed's length and however fast
/// the moves come: loads take one of three permits before calling the factory, and a
/// cancelled load keeps its permit until its player is closed.
///
/// A clip that fails to open or prepare leaves `.failed` in its slot and the window goes on.
/// Everything that happens is reported on `events`. Call `close()` when done.
public actor PlayerWindow<Player: ClipPlayer> {
    /// Makes the player for a position. It may open the media; `prepare` does the rest.
    public typealias Factory = @Sendable (Int) async throws -> Player

    /// The number of items in the feed.
    public nonisolated let count: Int
    /// Whether `next` after the last item goes to the first one, and `previous` back.
    public nonisolated let wrap: Bool
    /// The window's events, in order. Unbounded: consume them, or they accumulate.
    /// Finishes after `close()`.
    public nonisolated let events: AsyncStream<PlayerWindowEvent>

    private enum Load {
        case waiting, opening
        case preparing(Player), ready(Player)
        case failed(String)
    }

    private struct Slot {
        var token: UInt64
        var load: Load
        var task: Task<Void, Never>?
    }

    private enum RunState { case idle, running, closed }

    private let factory: Factory
    private let eventSink: AsyncStream<PlayerWindowEvent>.Continuation
    private let clock = ContinuousClock()
    private var runState = RunState.idle
    private var window: PlayerSlots
    private var held: [Int: Slot] = [:]
    private var lastToken: UInt64 = 0
    private var live: [Int] = []
    private var permits = LoadPermits(count: 3)
    private var loadsInFlight = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var currentWaiters: [CheckedContinuation<Void, Never>] = []
    private var playing: (position: Int, token: UInt64)?
    private var pendingMove: (started: ContinuousClock.Instant, wasPrepared: Bool)?

    /// A window over a feed of `count` items; nothing loads until `start(at:)`.
    /// - Throws: `PlayerWindowError.emptyFeed` when `count` is not positive.
    public init(count: Int, wrap: Bool = false, factory: @escaping Factory) throws(PlayerWindowError) {
        guard count > 0 else { throw .emptyFeed }
        self.count = count
        self.wrap = wrap
        self.factory = factory
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        window = PlayerSlots(current: 0, count: count, wrap: wrap)
    }

    deinit {
        for slot in held.values {
            slot.task?.cancel()
            if case .ready(let player) = slot.load { player.close() }
        }
        eventSink.finish()
    }

    /// The positions in the three slots.
    public var slots: PlayerSlots { window }

    /// The positions with an open player, ascending (a cancelled load still finishing counts).
    public var livePositions: [Int] { live }

    /// True when no load is in flight (what `settle()` waits for).
    public var isSettled: Bool { loadsInFlight == 0 }

    /// What the slot for `position` holds now.
    public func state(at position: Int) -> SlotState<Player> {
        switch held[position]?.load {
        case nil: .empty
        case .waiting, .opening, .preparing: .loading
        case .ready(let player): .ready(player)
        case .failed(let message): .failed(message: message)
        }
    }

    /// Starts at `position`: loads it, then prepares its neighbours. On a running window this
    /// is `move(.to(position))`.
    /// - Throws: `PlayerWindowError.positionOutOfRange`, or `.notRunning` after `close()`.
    public func start(at position: Int = 0) throws(PlayerWindowError) {
        guard (0..<count).contains(position) else { throw .positionOutOfRange(position, count: count) }
        switch runState {
        case .closed: throw .notRunning
        case .running: try move(.to(position))
        case .idle:
            runState = .running
            go(to: position, from: nil)
        }
    }

    /// Moves the current position and returns the slots after the move. `next` at the last
    /// item and `previous` at the first do nothing unless the window wraps; a move to the
    /// current position does nothing.
    /// - Throws: `PlayerWindowError.positionOutOfRange` for `.to` outside the feed,
    ///   `.notRunning` before `start(at:)` or after `close()`.
    @discardableResult
    public func move(_ move: PlayerMove) throws(PlayerWindowError) -> PlayerSlots {
        guard runState == .running else { throw .notRunning }
        let target: Int?
        switch move {
        case .next: target = window.next
        case .previous: target = window.previous
        case .to(let position):
            guard (0..<count).contains(position) else { throw .positionOutOfRange(position, count: count) }
            target = position
        }
        if let target, target != window.current { go(to: target, from: window.current) }
        return window
    }

    /// Waits until the current item is ready or has failed (following later moves), or the
    /// window closes, and returns its position and state.
    public func current() async -> (position: Int, state: SlotState<Player>) {
        while runState != .closed, !state(at: window.current).isSettled {
            await withCheckedContinuation { currentWaiters.append($0) }
        }
        return (window.current, state(at: window.current))
    }

    /// Waits until no load is in flight: every slot is ready or failed and every cancelled
    /// load has closed its player.
    public func settle() async {
        while loadsInFlight > 0 {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    /// Evicts every slot, waits for cancelled loads to close their players, and finishes
    /// `events`. The window cannot be used afterwards.
    public func close() async {
        guard runState != .closed else { return }
        runState = .closed
        for position in held.keys.sorted() { evict(position) }
        resumeCurrentWaiters()
        await settle()
        eventSink.finish()
    }

    // MARK: - Moves

    private func go(to target: Int, from: Int?) {
        let started = clock.now
        if let playing, let slot = held[playing.position], slot.token == playing.token,
           case .ready(let player) = slot.load {
            player.pause()
        }
        playing = nil
        window = PlayerSlots(current: target, count: count, wrap: wrap)
        var wasPrepared = false
        if case .ready? = held[target]?.load { wasPrepared = true }
        pendingMove = (started, wasPrepared)
        emit(.moved(from: from, to: target))
        reconcile()
    }

    /// Brings the held slots in line with `window`: evicts, starts loads, plays the current.
    private func reconcile() {
        guard runState == .running else { return }
        let wanted = window.positions
        for position in held.keys.sorted() where !wanted.contains(position) { evict(position) }
        let current = window.current
        ensureLoad(current)
        guard let slot = held[current] else { return }
        switch slot.load {
        case .ready(let player):
            if playing?.token != slot.token {
                player.play()
                playing = (current, slot.token)
                if let pending = pendingMove {
                    pendingMove = nil
                    emit(.firstFrame(current, elapsed: clock.now - pending.started, wasPrepared: pending.wasPrepared))
                }
            }
            // Neighbours load only once the current item is showing, so they never compete with it.
            for position in wanted.dropFirst() { ensureLoad(position) }
            resumeCurrentWaiters()
        case .failed:
            pendingMove = nil
            for position in wanted.dropFirst() { ensureLoad(position) }
            resumeCurrentWaiters()
        case .waiting, .opening, .preparing:
            break
        }
    }

    private func evict(_ position: Int) {
        guard let slot = held.removeValue(forKey: position) else { return }
        permits.cancel(token: slot.token)
        slot.task?.cancel()
        if case .ready(let player) = slot.load {
            player.close()
            closed(position)
        }
        if playing?.token == slot.token { playing = nil }
        emit(.evicted(position))
    }

    // MARK: - Loads

    private func ensureLoad(_ position: Int) {
        guard held[position] == nil else { return }
        lastToken += 1
        let token = lastToken
        held[position] = Slot(token: token, load: .waiting, task: nil)
        loadsInFlight += 1
        // The task runs on this actor, so it cannot start before `task` is stored.
        held[position]?.task = Task { await self.load(position, token: token) }
    }

    private func load(_ position: Int, token: UInt64) async {
        defer { loadFinished() }
        do {
            if !permits.take() {
                try await withCheckedThrowingContinuation {
                    permits.enqueue(token: token, position: position, continuation: $0)
                }
            }
        } catch {
            return  // evicted while waiting: no permit was granted
        }
        guard holds(position, token) else { return releasePermit() }
        held[position]?.load = .opening
        let player: Player
        do {
            player = try await factory(position)
        } catch {
            releasePermit()
            return holds(position, token) ? fail(position, error) : emit(.cancelled(position))
        }
        opened(position)
        guard holds(position, token) else { return discard(player, position) }
        held[position]?.load = .preparing(player)
        emit(.loaded(position))
        do {
            try await player.prepare()
        } catch {
            guard holds(position, token) else { return discard(player, position) }
            player.close()
            closed(position)
            return fail(position, error)
        }
        guard holds(position, token) else { return discard(player, position) }
        held[position]?.load = .ready(player)
        held[position]?.task = nil
        emit(.prepared(position))
        reconcile()
    }

    /// True while the slot for `position` still belongs to the load with `token`.
    private func holds(_ position: Int, _ token: UInt64) -> Bool {
        held[position]?.token == token && !Task.isCancelled
    }

    private func discard(_ player: Player, _ position: Int) {
        player.close()
        closed(position)
        emit(.cancelled(position))
    }

    private func fail(_ position: Int, _ error: any Error) {
        let message = "\(error)"
        held[position]?.load = .failed(message)
        held[position]?.task = nil
        emit(.failed(position, message: message))
        reconcile()
    }

    private func opened(_ position: Int) {
        live.insert(position, at: live.firstIndex { $0 > position } ?? live.endIndex)
    }

    /// Marks a player closed and gives its permit back.
    private func closed(_ position: Int) {
        if let index = live.firstIndex(of: position) { live.remove(at: index) }
        releasePermit()
    }

    private func releasePermit() {
        let window = window
        permits.release { position in
            position == window.current ? 0 : position == window.next ? 1 : position == window.previous ? 2 : 3
        }
    }

    private func loadFinished() {
        loadsInFlight -= 1
        guard loadsInFlight == 0 else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func resumeCurrentWaiters() {
        let waiters = currentWaiters
        currentWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func emit(_ kind: PlayerWindowEvent.Kind) {
        eventSink.yield(PlayerWindowEvent(kind: kind, live: live, slots: window))
    }
}
