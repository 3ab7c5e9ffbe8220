import Foundation
@testable import FeedCore
@testable import FeedPlayer

/// How a fake clip behaves when the window opens and prepares it.
enum FakeBehaviour: Sendable, Equatable {
    /// Prepares at once.
    case immediate
    /// Prepares after yielding this many times (lets other tasks interleave).
    case yields(Int)
    /// `prepare` suspends until the test calls `release`; cancellation does not wake it.
    case gated
    /// The factory throws: the clip cannot be opened.
    case failsOpen
    /// `prepare` throws: the clip opens but cannot be decoded.
    case failsPrepare
}

struct FakeClipError: Error, CustomStringConvertible {
    var position: Int
    var stage: String
    var description: String { "clip \(position): cannot \(stage)" }
}

/// Counts every fake opened and closed, so tests check the live bound from the players'
/// side, not the window's word; also records misuse (play before prepare, double close).
final class FakeLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var players: [FakeClipPlayer] = []
    private var liveNow = 0
    private var maxLiveSeen = 0
    private var problems: [String] = []
    /// Decides each open's behaviour from the position and how many opens came before.
    let behaviour: @Sendable (_ position: Int, _ openIndex: Int) -> FakeBehaviour
    /// Whether a prepare that was cancelled throws `CancellationError` (true) or returns.
    let honoursCancellation: Bool

    init(honoursCancellation: Bool = true,
         behaviour: @escaping @Sendable (_ position: Int, _ openIndex: Int) -> FakeBehaviour = { _, _ in .immediate }) {
        self.behaviour = behaviour
        self.honoursCancellation = honoursCancellation
    }

    /// The window's factory.
    var factory: PlayerWindow<FakeClipPlayer>.Factory {
        { [self] position in try open(position) }
    }

    func open(_ position: Int) throws -> FakeClipPlayer {
        try lock.withLock {
            let chosen = behaviour(position, players.count)
            if chosen == .failsOpen { throw FakeClipError(position: position, stage: "open") }
            let player = FakeClipPlayer(position: position, behaviour: chosen, ledger: self)
            players.append(player)
            liveNow += 1
            maxLiveSeen = max(maxLiveSeen, liveNow)
            return player
        }
    }

    func didClose() { lock.withLock { liveNow -= 1 } }
    func problem(_ text: String) { lock.withLock { problems.append(text) } }

    var all: [FakeClipPlayer] { lock.withLock { players } }
    var opened: Int { lock.withLock { players.count } }
    var live: Int { lock.withLock { liveNow } }
    var maxLive: Int { lock.withLock { maxLiveSeen } }
    var misuse: [String] { lock.withLock { problems } }
    var livePositions: [Int] { all.filter { !$0.isClosed }.map(\.position).sorted() }

    /// The most recent player opened for `position`.
    func latest(_ position: Int) -> FakeClipPlayer? { all.last { $0.position == position } }

    /// Waits (polling, up to 5 s) until a player for `position` is suspended in a gated prepare.
    func waitUntilGated(_ position: Int) async throws -> FakeClipPlayer {
        for _ in 0..<5000 {
            if let player = latest(position), player.isWaitingAtGate { return player }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw FakeClipError(position: position, stage: "reach the gate in time")
    }
}

/// A clip player that decodes nothing and remembers what was done to it. Its clip is
/// ``duration`` seconds long; a seek moves ``time`` within it, or throws ``seekFailure``.
final class FakeClipPlayer: ControllablePlayer, @unchecked Sendable {
    let position: Int
    let behaviour: FakeBehaviour
    // Weak: the ledger keeps every player it opened, so a strong reference would be a cycle.
    private weak var ledger: FakeLedger?
    private let lock = NSLock()
    private var gate: CheckedContinuation<Void, Never>?
    private var released = false
    private var waiting = false
    private var prepared = false
    private var playing = false
    private var closed = false
    private var cancelledInPrepare = false
    private var clipTime = 0.0
    private var failure: MediaError?
    /// The clip's length in seconds.
    let duration = 10.0

    init(position: Int, behaviour: FakeBehaviour, ledger: FakeLedger) {
        self.position = position
        self.behaviour = behaviour
        self.ledger = ledger
    }

    var isPrepared: Bool { lock.withLock { prepared } }
    var isPlaying: Bool { lock.withLock { playing } }
    var isClosed: Bool { lock.withLock { closed } }
    var isWaitingAtGate: Bool { lock.withLock { waiting } }
    /// True when the task running `prepare` had been cancelled by the time it got past the gate.
    var sawCancellation: Bool { lock.withLock { cancelledInPrepare } }

    /// The clip time shown, in seconds.
    var time: Double { lock.withLock { clipTime } }
    /// What the next seeks throw; nil: they succeed.
    var seekFailure: MediaError? {
        get { lock.withLock { failure } }
        set { lock.withLock { failure = newValue } }
    }

    func seek(by seconds: Double, now: ContinuousClock.Instant) throws(MediaError) {
        lock.lock()
        defer { lock.unlock() }
        if closed { ledger?.problem("seek \(position) after close") }
        if let failure { throw failure }
        clipTime = min(max(0, clipTime + seconds), duration)
    }

    /// Lets a gated `prepare` return.
    func release() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            released = true
            defer { gate = nil }
            return gate
        }
        waiter?.resume()
    }

    func prepare() async throws {
        switch behaviour {
        case .immediate, .failsOpen: break
        case .yields(let count): for _ in 0..<count { await Task.yield() }
        case .failsPrepare: throw FakeClipError(position: position, stage: "decode")
        case .gated:
            await withCheckedContinuation { continuation in
                let open: Bool = lock.withLock {
                    if released { return true }
                    gate = continuation
                    waiting = true
                    return false
                }
                if open { continuation.resume() }
            }
            lock.withLock { waiting = false }
        }
        if Task.isCancelled {
            lock.withLock { cancelledInPrepare = true }
            if ledger?.honoursCancellation ?? true { throw CancellationError() }
        }
        lock.withLock { prepared = true }
    }

    func play() {
        lock.withLock {
            if !prepared || closed { ledger?.problem("play \(position) before prepare or after close") }
            playing = true
        }
    }

    func pause() {
        lock.withLock {
            if closed { ledger?.problem("pause \(position) after close") }
            playing = false
        }
    }

    func close() {
        let first: Bool = lock.withLock {
            defer { closed = true; playing = false }
            return !closed
        }
        if first { ledger?.didClose() } else { ledger?.problem("close \(position) twice") }
    }
}

extension PlayerWindow {
    /// `settle()` that fails instead of hanging: a leaked permit would otherwise stall a
    /// test forever rather than fail it. 30 s: on a loaded 2-core machine (the whole suite, the
    /// worker chaos test's processes) settling has taken over 5 s without anything being wrong.
    func settled(within limit: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + limit
        while !isSettled {
            guard ContinuousClock.now < deadline else { throw FakeClipError(position: slots.current, stage: "settle in time") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
