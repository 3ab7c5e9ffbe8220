import Testing
@testable import FeedCore
@testable import FeedPlayer

/// The marks a controller asked to save, and what to answer.
private actor MarkLog {
    private(set) var asked: [String] = []
    private let refusal: String?

    init(refusal: String? = nil) { self.refusal = refusal }

    func save(_ command: PlayerCommand, _ position: Int) -> String? {
        asked.append("\(command) \(position)")
        return refusal
    }
}

@Suite(.timeLimit(.minutes(1))) struct PlayControllerTests {
    /// A started, settled window of `count` fake clips and its controller.
    private func session(count: Int = 5, start: Int = 0, marks: MarkLog = MarkLog(),
                         behaviour: @escaping @Sendable (Int, Int) -> FakeBehaviour = { _, _ in .immediate })
        async throws -> (PlayController<FakeClipPlayer>, PlayerWindow<FakeClipPlayer>, FakeLedger) {
        let ledger = FakeLedger(behaviour: behaviour)
        let window = try PlayerWindow(count: count, factory: ledger.factory)
        let controller = PlayController(window: window) { command, position in await marks.save(command, position) }
        try await window.start(at: start)
        await window.settle()
        return (controller, window, ledger)
    }

    @Test func movesGoToTheWindowAndEndAPause() async throws {
        // Given a paused clip at 0
        let (controller, window, ledger) = try await session()
        #expect(try await controller.apply(.pause) == .paused(time: 0))
        #expect(controller.isPaused)

        // When the viewer moves on, then the window moves, the next clip plays and the pause is over
        let moved = try await controller.apply(.move(.next))
        await window.settle()

        #expect(moved == .moved(PlayerSlots(current: 1, count: 5, wrap: false)))
        #expect(await window.slots.current == 1)
        #expect(!controller.isPaused)
        #expect(ledger.latest(1)?.isPlaying == true)
        #expect(ledger.latest(0)?.isPlaying == false)

        // And a move that goes nowhere (prev at the start) keeps the pause
        _ = try await controller.apply(.move(.to(0)))
        await window.settle()
        _ = try await controller.apply(.pause)
        #expect(try await controller.apply(.move(.previous)) == .moved(PlayerSlots(current: 0, count: 5, wrap: false)))
        #expect(controller.isPaused)
        await window.close()
        #expect(ledger.misuse.isEmpty)
    }

    @Test func pauseResumeAndSeekActOnTheCurrentClipAndReportItsTime() async throws {
        let (controller, window, ledger) = try await session()
        let clip = try #require(ledger.latest(0))

        let paused = try await controller.apply(.pause)
        let pausedPlaying = clip.isPlaying
        let seeked = try await controller.apply(.seek(seconds: 2.5))
        let resumed = try await controller.apply(.resume)
        let back = try await controller.apply(.seek(seconds: -30))
        let beyond = try await controller.apply(.seek(seconds: 99))

        #expect(paused == .paused(time: 0) && !pausedPlaying)
        #expect(seeked == .seeked(time: 2.5))
        #expect(resumed == .resumed(time: 2.5) && clip.isPlaying && !controller.isPaused)
        #expect(back == .seeked(time: 0), "clamped at the start")
        #expect(beyond == .seeked(time: clip.duration), "clamped at the end")
        await window.close()
    }

    @Test func aSeekTheClipRefusesIsAFailureWithItsMessage() async throws {
        let (controller, window, ledger) = try await session()
        let failure = MediaError.decodeFailed(path: "a.mp4", reason: "cannot seek")
        try #require(ledger.latest(0)).seekFailure = failure

        #expect(try await controller.apply(.seek(seconds: 5)) == .failed(reason: failure.description))
        await window.close()
    }

    @Test func withNoClipPlayingPauseResumeAndSeekAreSkipped() async throws {
        // Given a current clip that failed to open
        let (controller, window, _) = try await session { position, _ in position == 0 ? .failsOpen : .immediate }

        for command: PlayerCommand in [.pause, .resume, .seek(seconds: 5)] {
            #expect(try await controller.apply(command) == .skipped(reason: "no clip is playing"))
        }
        #expect(!controller.isPaused)
        await window.close()
    }

    @Test func muteAndAutoAdvanceToggleTheSessionsStateAndQuitAsksToEnd() async throws {
        let (controller, window, _) = try await session()

        #expect(try await controller.apply(.mute) == .muted)
        #expect(controller.isMuted)
        #expect(try await controller.apply(.mute) == .unmuted)
        #expect(try await controller.apply(.unmute) == .unmuted, "unmute when not muted changes nothing")
        #expect(try await controller.apply(.mute) == .muted)
        #expect(try await controller.apply(.unmute) == .unmuted)
        #expect(try await controller.apply(.mute) == .muted, "after unmute, mute mutes again")
        #expect(try await controller.apply(.mute) == .unmuted)
        #expect(try await controller.apply(.autoAdvance) == .autoAdvance(true))
        #expect(controller.autoAdvance)
        #expect(try await controller.apply(.autoAdvance) == .autoAdvance(false))
        #expect(try await controller.apply(.quit) == .quit)
        #expect(await window.slots.current == 0, "quit leaves closing to the caller")
        await window.close()
    }

    @Test func likesAndBookmarksAreSavedByTheMarkerForTheCurrentPosition() async throws {
        let marks = MarkLog()
        let (controller, window, _) = try await session(start: 2, marks: marks)

        #expect(try await controller.apply(.like) == .liked)
        _ = try await controller.apply(.move(.next))
        #expect(try await controller.apply(.bookmark) == .bookmarked)
        _ = try await controller.apply(.mute)

        #expect(await marks.asked == ["like 2", "bookmark 3"], "only likes and bookmarks reach the marker")
        await window.close()
    }

    @Test func aMarkThatCannotBeSavedIsAFailureWithTheMarkersReason() async throws {
        let (controller, window, _) = try await session(marks: MarkLog(refusal: "the roll is read-only"))

        #expect(try await controller.apply(.like) == .failed(reason: "the roll is read-only"))
        #expect(try await controller.apply(.bookmark) == .failed(reason: "the roll is read-only"))
        await window.close()
    }

    @Test func aMoveOutsideTheFeedThrowsTheWindowsError() async throws {
        let (controller, window, _) = try await session(count: 3)

        await #expect(throws: PlayerWindowError.positionOutOfRange(7, count: 3)) { try await controller.apply(.move(.to(7))) }
        await window.close()
        await #expect(throws: PlayerWindowError.notRunning) { try await controller.apply(.move(.next)) }
    }
}
