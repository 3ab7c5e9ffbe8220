import FeedTestSupport
import Testing
@testable import FeedCore
@testable import FeedPlayer

/// Closes the window and returns every event it emitted.
private func closeAndCollect(_ window: PlayerWindow<FakeClipPlayer>) async -> [PlayerWindowEvent] {
    await window.close()
    var events: [PlayerWindowEvent] = []
    for await event in window.events { events.append(event) }
    return events
}

private func kinds(_ events: [PlayerWindowEvent]) -> [PlayerWindowEvent.Kind] { events.map(\.kind) }

@Suite(.timeLimit(.minutes(1))) struct PlayerWindowTests {
    @Test func startLoadsTheCurrentItemThenPreparesItsNeighbour() async throws {
        // Given a five-item feed of clips that prepare at once
        let ledger = FakeLedger()
        let window = try PlayerWindow(count: 5, factory: ledger.factory)

        // When the window starts at 0 and settles
        try await window.start(at: 0)
        await window.settle()

        // Then 0 plays, 1 waits prepared and paused, and nothing else was opened
        #expect(await window.slots == PlayerSlots(current: 0, count: 5, wrap: false))
        #expect(await window.livePositions == [0, 1])
        #expect(ledger.latest(0)?.isPlaying == true)
        #expect(ledger.latest(1)?.isPrepared == true)
        #expect(ledger.latest(1)?.isPlaying == false)
        #expect(ledger.opened == 2)
        let events = await closeAndCollect(window)
        let firstFive = Array(kinds(events).prefix(6))
        #expect(firstFive.count == 6)
        guard firstFive.count == 6 else { return }
        #expect(firstFive[0] == .moved(from: nil, to: 0))
        #expect(firstFive[1] == .loaded(0))
        #expect(firstFive[2] == .prepared(0))
        guard case .firstFrame(0, _, wasPrepared: false) = firstFive[3] else {
            Issue.record("expected a cold first frame for 0, got \(firstFive[3])")
            return
        }
        #expect(firstFive[4] == .loaded(1))
        #expect(firstFive[5] == .prepared(1))
        #expect(ledger.live == 0)
        #expect(ledger.misuse.isEmpty)
    }

    @Test func neighboursStartLoadingOnlyOnceTheCurrentItemIsReady() async throws {
        // Given gated clips and a window started in the middle of the feed
        let ledger = FakeLedger { _, _ in .gated }
        let window = try PlayerWindow(count: 9, factory: ledger.factory)
        try await window.start(at: 4)
        let current = try await ledger.waitUntilGated(4)

        // When the current item is still preparing, then nothing else is opened
        try await Task.sleep(for: .milliseconds(20))
        #expect(ledger.opened == 1)

        // When it is ready, then both neighbours load
        current.release()
        for neighbour in [5, 3] { try await ledger.waitUntilGated(neighbour).release() }
        try await window.settled()
        #expect(await window.livePositions == [3, 4, 5])
        _ = await closeAndCollect(window)
    }

    @Test func aMoveToAPreparedNeighbourShowsItsFirstFrameAtOnce() async throws {
        // Given a settled window at 0 over ten items
        let ledger = FakeLedger()
        let window = try PlayerWindow(count: 10, factory: ledger.factory)
        try await window.start()
        try await window.settled()

        // When it moves to the next item, with no time for any load to run
        let slots = try await window.move(.next)

        // Then the new current is ready and playing immediately, the old one paused
        #expect(slots == PlayerSlots(current: 1, count: 10, wrap: false))
        #expect(await window.state(at: 1).player === ledger.latest(1))
        #expect(ledger.latest(1)?.isPlaying == true)
        #expect(ledger.latest(0)?.isPlaying == false)
        try await window.settled()
        #expect(await window.livePositions == [0, 1, 2])
        let events = await closeAndCollect(window)
        guard let moved = events.firstIndex(where: { $0.kind == .moved(from: 0, to: 1) }) else {
            Issue.record("no move event in \(events)")
            return
        }
        guard case .firstFrame(1, let elapsed, wasPrepared: true) = events[moved + 1].kind else {
            Issue.record("expected a prepared first frame right after the move, got \(events[moved + 1])")
            return
        }
        #expect(elapsed < .seconds(1))
    }

    @Test func theEndsHaveNoNeighbourWithoutWrap() async throws {
        // Given a three-item feed that does not wrap
        let ledger = FakeLedger()
        let window = try PlayerWindow(count: 3, factory: ledger.factory)
        try await window.start(at: 0)

        // When moving back from the first item and on past the last one
        let atStart = try await window.move(.previous)
        try await window.move(.next)
        try await window.move(.next)
        let atEnd = try await window.move(.next)
        try await window.settled()

        // Then the moves past the ends do nothing and the missing neighbour stays empty
        #expect(atStart == PlayerSlots(current: 0, count: 3, wrap: false))
        #expect(atStart.previous == nil && atStart.next == 1)
        #expect(atEnd.current == 2 && atEnd.previous == 1 && atEnd.next == nil)
        #expect(await window.livePositions == [1, 2])
        #expect(await closeAndCollect(window).filter { if case .moved = $0.kind { true } else { false } }.count == 3)
    }

    @Test func wrapLoopsAroundAtBothEnds() async throws {
        // Given a four-item feed that wraps, started at 0
        let ledger = FakeLedger()
        let window = try PlayerWindow(count: 4, wrap: true, factory: ledger.factory)
        try await window.start(at: 0)
        try await window.settled()
        #expect(await window.slots == PlayerSlots(current: 0, count: 4, wrap: true))
        #expect(await window.livePositions == [0, 1, 3])

        // When moving back from the first item, then forward past the last
        let back = try await window.move(.previous)
        try await window.settled()
        #expect(back.previous == 2 && back.current == 3 && back.next == 0)
        #expect(await window.livePositions == [0, 2, 3])
        let forward = try await window.move(.next)
        try await window.settled()

        // Then the window is back at 0 with 3 before it and 1 after it
        #expect(forward.previous == 3 && forward.current == 0 && forward.next == 1)
        #expect(await window.livePositions == [0, 1, 3])
        #expect(ledger.maxLive <= 3)
        _ = await closeAndCollect(window)
        #expect(ledger.live == 0)
    }

    @Test(arguments: [(1, false), (1, true), (2, false), (2, true)])
    func tinyFeedsHoldOnePlayerPerDistinctPosition(count: Int, wrap: Bool) async throws {
        // Given a feed of one or two items
        let ledger = FakeLedger()
        let window = try PlayerWindow(count: count, wrap: wrap, factory: ledger.factory)

        // When it starts and moves forward and back
        try await window.start()
        try await window.move(.next)
        try await window.move(.previous)
        try await window.settled()

        // Then every item is live once, and never twice
        #expect(await window.livePositions == Array(0..<count))
        #expect(ledger.maxLive == count)
        _ = await closeAndCollect(window)
    }

    @Test func aMoveDuringALoadCancelsItAndTheStaleLoadNeverLands() async throws {
        // Given a window whose clips hold in prepare until released
        let ledger = FakeLedger { _, _ in .gated }
        let window = try PlayerWindow(count: 10, factory: ledger.factory)
        try await window.start(at: 0)
        let stale = try await ledger.waitUntilGated(0)

        // When the user jumps to 5 while 0 is still preparing, and 0 then finishes
        try await window.move(.to(5))
        stale.release()
        let fresh = try await ledger.waitUntilGated(5)

        // Then 0's task was cancelled, its player closed, and its slot was never filled. The
        // close follows the cancelled prepare on 0's own task, which may still be on its way
        // while 5 waits at its gate: wait for it (5 s at most).
        #expect(try await waitUntil(timeout: 5, every: 0.001) { stale.isClosed })
        #expect(stale.sawCancellation)
        #expect(!stale.isPlaying)
        if case .empty = await window.state(at: 0) {} else { Issue.record("slot 0 should be empty") }
        fresh.release()
        for neighbour in [6, 4] { try await ledger.waitUntilGated(neighbour).release() }
        try await window.settled()
        #expect(await window.livePositions == [4, 5, 6])
        #expect(ledger.latest(5)?.isPlaying == true)
        let events = await closeAndCollect(window)
        #expect(!kinds(events).contains(.prepared(0)))
        #expect(kinds(events).contains(.cancelled(0)))
        #expect(kinds(events).contains(.evicted(0)))
        #expect(ledger.misuse.isEmpty)
    }

    @Test(arguments: [true, false])
    func aStaleLoadNeverLandsInTheSlotOfANewerLoadOfTheSamePosition(honoursCancellation: Bool) async throws {
        // Given gated clips, a load of 0 in flight, a jump away and straight back to 0
        let ledger = FakeLedger(honoursCancellation: honoursCancellation) { _, _ in .gated }
        let window = try PlayerWindow(count: 10, factory: ledger.factory)
        try await window.start(at: 0)
        let stale = try await ledger.waitUntilGated(0)
        try await window.move(.to(5))
        _ = try await ledger.waitUntilGated(5)
        try await window.move(.to(0))
        var fresh: FakeClipPlayer?
        for _ in 0..<5000 where fresh == nil {
            if let latest = ledger.latest(0), latest !== stale, latest.isWaitingAtGate { fresh = latest }
            try await Task.sleep(for: .milliseconds(1))
        }
        let newer = try #require(fresh)

        // When the stale load of 0 finishes first
        stale.release()
        for _ in 0..<5000 where !stale.isClosed { try await Task.sleep(for: .milliseconds(1)) }

        // Then it is closed and the slot still waits for the newer load, which then lands
        #expect(stale.isClosed && stale.sawCancellation)
        if case .loading = await window.state(at: 0) {} else { Issue.record("slot 0 should still be loading") }
        newer.release()
        ledger.latest(5)?.release()
        try await ledger.waitUntilGated(1).release()
        try await window.settled()
        #expect(await window.state(at: 0).player === newer)
        #expect(newer.isPlaying && !stale.isPlaying)
        #expect(await window.livePositions == [0, 1])
        _ = await closeAndCollect(window)
        #expect(ledger.live == 0)
        #expect(ledger.misuse.isEmpty)
    }

    @Test func loadsStuckPastCancellationStillCountAgainstTheThreeLivePlayers() async throws {
        // Given clips whose prepare ignores cancellation and holds until released
        let ledger = FakeLedger(honoursCancellation: false) { _, _ in .gated }
        let window = try PlayerWindow(count: 40, factory: ledger.factory)

        // When the user jumps four times while every load is stuck
        try await window.start(at: 0)
        let first = try await ledger.waitUntilGated(0)
        try await window.move(.to(10))
        _ = try await ledger.waitUntilGated(10)
        try await window.move(.to(20))
        _ = try await ledger.waitUntilGated(20)
        try await window.move(.to(30))
        try await Task.sleep(for: .milliseconds(20))

        // Then the fourth load waits for a permit instead of opening a fourth player
        #expect(ledger.opened == 3)
        #expect(ledger.live == 3)

        // And when the first stuck load finishes, the freed permit goes to the current item
        first.release()
        try await ledger.waitUntilGated(30).release()
        for position in [10, 20] { ledger.latest(position)?.release() }
        for neighbour in [31, 29] { try await ledger.waitUntilGated(neighbour).release() }
        try await window.settled()
        #expect(await window.livePositions == [29, 30, 31])
        #expect(ledger.maxLive == 3)
        let events = await closeAndCollect(window)
        #expect(events.allSatisfy { $0.live.count <= 3 })
        #expect(ledger.live == 0)
    }

    @Test func aClipThatFailsLeavesAnErrorInItsSlotAndTheWindowGoesOn() async throws {
        // Given a feed where 2 cannot be opened and 3 cannot be decoded
        let ledger = FakeLedger { position, _ in
            position == 2 ? .failsOpen : position == 3 ? .failsPrepare : .immediate
        }
        let window = try PlayerWindow(count: 6, factory: ledger.factory)
        try await window.start(at: 1)
        try await window.settled()
        guard case .failed(let message) = await window.state(at: 2) else {
            Issue.record("slot 2 should hold the open failure")
            return
        }
        #expect(message == "clip 2: cannot open")

        // When the user moves onto both broken clips and past them
        try await window.move(.next)
        let onTwo = await window.current()
        try await window.move(.next)
        let onThree = await window.current()
        try await window.move(.next)
        let onFour = await window.current()
        try await window.settled()

        // Then each broken slot reports its error and the next good clip plays
        #expect(onTwo.position == 2)
        #expect(onThree.position == 3)
        if case .failed(let text) = onThree.state { #expect(text == "clip 3: cannot decode") } else {
            Issue.record("slot 3 should hold the decode failure, got \(onThree.state)")
        }
        #expect(onFour.position == 4 && onFour.state.player?.isPlaying == true)
        #expect(await window.livePositions == [4, 5])
        let events = await closeAndCollect(window)
        #expect(kinds(events).contains(.failed(2, message: "clip 2: cannot open")))
        #expect(kinds(events).contains(.failed(3, message: "clip 3: cannot decode")))
        #expect(ledger.live == 0)
        #expect(ledger.misuse.isEmpty)
    }

    @Test func badRequestsThrowTypedErrors() async throws {
        let ledger = FakeLedger()
        #expect(throws: PlayerWindowError.emptyFeed) { try PlayerWindow(count: 0, factory: ledger.factory) }
        let window = try PlayerWindow(count: 3, factory: ledger.factory)
        await #expect(throws: PlayerWindowError.notRunning) { try await window.move(.next) }
        await #expect(throws: PlayerWindowError.positionOutOfRange(3, count: 3)) { try await window.start(at: 3) }
        try await window.start()
        await #expect(throws: PlayerWindowError.positionOutOfRange(-1, count: 3)) { try await window.move(.to(-1)) }
        _ = await closeAndCollect(window)
        await #expect(throws: PlayerWindowError.notRunning) { try await window.move(.next) }
        #expect(ledger.live == 0)
    }
}
