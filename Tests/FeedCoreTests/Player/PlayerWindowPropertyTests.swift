import Testing
@testable import FeedCore
@testable import FeedPlayer

/// A small seeded generator (SplitMix64), so a failing sequence is replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The slots a window must show, worked out independently of `PlayerSlots`.
private func expectedSlots(current: Int, count: Int, wrap: Bool) -> (previous: Int?, current: Int, next: Int?) {
    if count == 1 { return (nil, current, nil) }
    if wrap { return ((current + count - 1) % count, current, (current + 1) % count) }
    return (current > 0 ? current - 1 : nil, current, current < count - 1 ? current + 1 : nil)
}

@Suite(.timeLimit(.minutes(1))) struct PlayerWindowPropertyTests {
    /// 300 random sequences in four blocks; a failure names its seed.
    @Test(arguments: 0..<4)
    func randomMoveSequencesKeepTheRightPositionsAndAtMostThreeLive(block: Int) async throws {
        for seed in UInt64(block * 75)..<UInt64((block + 1) * 75) {
            try await checkSequence(seed: seed)
        }
    }

    private func checkSequence(seed: UInt64) async throws {
        // Given a feed of random length, wrap, and clips that prepare at random speeds,
        // sometimes fail, and sometimes ignore cancellation
        var random = SplitMix64(seed: seed)
        let count = [1, 2, 3, Int.random(in: 4...40, using: &random)].randomElement(using: &random)!
        let wrap = Bool.random(using: &random)
        let ledger = FakeLedger(honoursCancellation: Bool.random(using: &random)) { position, openIndex in
            var clip = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(position) &* 7919 &+ UInt64(openIndex))
            let roll = clip.next() % 100
            return roll < 4 ? .failsOpen : roll < 8 ? .failsPrepare : roll < 35 ? .immediate : .yields(Int(roll % 9))
        }
        let window = try PlayerWindow(count: count, wrap: wrap, factory: ledger.factory)
        var current = Int.random(in: 0..<count, using: &random)
        try await window.start(at: current)

        // When it makes a random sequence of moves, with random gaps between them
        for step in 0..<Int.random(in: 1...40, using: &random) {
            let move: PlayerMove
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<9: move = .next
            case 9..<16: move = .previous
            default: move = .to(Int.random(in: 0..<count, using: &random))
            }
            let model = expectedSlots(current: current, count: count, wrap: wrap)
            switch move {
            case .next: current = model.next ?? current
            case .previous: current = model.previous ?? current
            case .to(let position): current = position
            }
            let slots = try await window.move(move)
            let expected = expectedSlots(current: current, count: count, wrap: wrap)
            #expect(slots.previous == expected.previous && slots.current == expected.current && slots.next == expected.next,
                    "seed \(seed) step \(step) \(move): \(slots)")
            switch Int.random(in: 0..<4, using: &random) {
            case 0: break
            case 1, 2: for _ in 0..<Int.random(in: 1...20, using: &random) { await Task.yield() }
            default: try await window.settled()
            }
            #expect(ledger.live <= 3, "seed \(seed) step \(step): \(ledger.live) live")
        }
        try await window.settled()

        // Then each slot holds a player for its own position (or its error), only those are
        // live, the current one plays, and no more than three were ever open at once
        let expected = expectedSlots(current: current, count: count, wrap: wrap)
        let wanted = Set([expected.previous, expected.current, expected.next].compactMap { $0 })
        var ready: [Int] = []
        for position in wanted {
            switch await window.state(at: position) {
            case .ready(let player):
                ready.append(position)
                #expect(player.position == position && !player.isClosed, "seed \(seed): slot \(position)")
                #expect(player.isPlaying == (position == current), "seed \(seed): \(position) playing")
            case .failed: break
            case .empty, .loading: Issue.record("seed \(seed): slot \(position) not settled")
            }
        }
        #expect(await window.livePositions == ready.sorted(), "seed \(seed)")
        #expect(ledger.livePositions == ready.sorted(), "seed \(seed)")
        #expect(ledger.maxLive <= 3, "seed \(seed): \(ledger.maxLive) live at once")
        await window.close()
        var events: [PlayerWindowEvent] = []
        for await event in window.events { events.append(event) }
        #expect(events.allSatisfy { $0.live.count <= 3 }, "seed \(seed)")
        #expect(ledger.live == 0, "seed \(seed): players left open after close")
        #expect(ledger.misuse.isEmpty, "seed \(seed): \(ledger.misuse)")
    }
}
