import Foundation
import Testing
@testable import FeedCore
@testable import FeedPlayer
import FeedTestSupport

@Suite("MediaClipPlayer")
final class MediaClipPlayerTests {
    private let box = MediaClipPlayer.Options(boxWidth: 64, boxHeight: 48)
    /// Each test's own folder (Swift Testing makes a suite instance per test), removed with it.
    private let folder: ScratchFolder

    init() throws { folder = try ScratchFolder() }

    /// A 64x48 30 fps numbered clip of `frames` frames in `colour`.
    private func clip(frames: Int = 15, colour: NumberedClip.Colour = .red) throws -> String {
        try NumberedClip.write(folder.path("clip.mp4"), width: 64, height: 48, fps: 30, frames: frames, colour: colour)
    }

    /// A player of a fresh `clip(frames:colour:)`, prepared.
    private func prepared(frames: Int = 15, colour: NumberedClip.Colour = .red,
                          options: MediaClipPlayer.Options? = nil) async throws -> MediaClipPlayer {
        let player = MediaClipPlayer(source: try clip(frames: frames, colour: colour), options: options ?? box)
        try await player.prepare()
        return player
    }

    @Test("prepare decodes the first frame, scaled to fit the box")
    func firstFrame() async throws {
        let path = try clip(colour: .blue)
        let player = MediaClipPlayer(source: path, options: MediaClipPlayer.Options(boxWidth: 32, boxHeight: 32))

        try await player.prepare()

        player.withFrame { frame in
            #expect(frame.width == 32 && frame.height == 24)
            #expect(NumberedClip.close(NumberedClip.colour(in: frame), .blue))
            #expect(frame.time == 0)
        }
        #expect(player.frameCount == 1)
        #expect(!player.isPlaying)
    }

    @Test("a file:// URL plays as its path")
    func fileURL() async throws {
        let path = try clip(colour: .green)
        let player = MediaClipPlayer(url: URL(fileURLWithPath: path), options: box)

        try await player.prepare()

        #expect(player.source == path)
        player.withFrame { #expect(NumberedClip.close(NumberedClip.colour(in: $0), .green)) }
    }

    @Test("frames follow the clock: due pictures only, the newest converted")
    func pacing() async throws {
        let player = try await prepared()

        player.play()
        let start = ContinuousClock.now
        let early = try player.advance(now: start)
        let changed = try player.advance(now: start + .milliseconds(110))
        let again = try player.advance(now: start + .milliseconds(110))

        #expect(!early, "frame 1 is not due at the start")
        #expect(changed)
        #expect(!again, "nothing new is due at the same instant")
        // The clock started at play(), a hair before `start`: frame 3 (0.1 s) is the newest due.
        player.withFrame { #expect(NumberedClip.number(in: $0) == 3) }
        #expect(player.frameCount == 2, "frames 1 and 2 were decoded but never converted")
    }

    @Test("at the end the clip loops from its first frame")
    func loops() async throws {
        let player = try await prepared()

        player.play()
        let start = ContinuousClock.now
        try player.advance(now: start + .milliseconds(300))
        let before = player.withFrame { NumberedClip.number(in: $0) }
        try player.advance(now: start + .seconds(2))

        #expect(before == 9)
        player.withFrame { #expect(NumberedClip.number(in: $0) == 0) }
        #expect(!player.isFinished)
        #expect(player.isPlaying)
    }

    @Test("without looping it stops on the last frame and says so")
    func finishes() async throws {
        var options = box
        options.loops = false
        let player = try await prepared(options: options)

        player.play()
        try player.advance(now: .now + .seconds(2))

        #expect(player.isFinished)
        #expect(!player.isPlaying)
        player.withFrame { #expect(NumberedClip.number(in: $0) == 14) }
    }

    @Test("pause stops the clock; seek moves by seconds and shows the frame there")
    func pauseAndSeek() async throws {
        let player = try await prepared(frames: 90)

        player.play()
        player.pause()
        let moved = try player.advance(now: .now + .seconds(1))
        try player.seek(by: 2)
        let forward = player.withFrame { NumberedClip.number(in: $0) }
        try player.seek(by: -1.5)
        let back = player.withFrame { NumberedClip.number(in: $0) }

        #expect(!moved)
        #expect(forward == 60)
        #expect(back == 15)
        #expect(abs(player.clockTime() - 0.5) < 0.001, "a paused clock stays on the frame sought")
    }

    @Test("stepFrame converts pictures in order whatever the clock, and starts again at the end")
    func steps() async throws {
        let player = try await prepared(frames: 4)

        var numbers: [Int] = []
        for _ in 0..<5 {
            #expect(try player.stepFrame())
            numbers.append(player.withFrame { NumberedClip.number(in: $0) })
        }

        #expect(numbers == [1, 2, 3, 0, 1])
        #expect(player.frameCount == 6)
    }

    @Test("close frees the decoder but keeps the last frame")
    func closeKeepsFrame() async throws {
        let player = try await prepared(colour: .green)

        player.close()

        #expect(player.info == nil)
        #expect(try !player.stepFrame())
        player.withFrame { #expect(NumberedClip.close(NumberedClip.colour(in: $0), .green)) }
    }

    @Test("resize converts the frame shown again at the new size, even when paused")
    func resize() async throws {
        let player = try await prepared(colour: .blue)

        player.resize(boxWidth: 32, boxHeight: 32)

        player.withFrame { frame in
            #expect(frame.width == 32 && frame.height == 24)
            #expect(NumberedClip.close(NumberedClip.colour(in: frame), .blue))
        }
    }

    @Test("a missing file fails to prepare with the media error")
    func missing() async throws {
        let player = MediaClipPlayer(source: "/nonexistent/clip.mp4", options: box)
        await #expect(throws: MediaError.missingFile(path: "/nonexistent/clip.mp4")) { try await player.prepare() }
    }

    @Test("an http URL is refused without allowNetwork, as a usage error naming the URL")
    func refusesNetwork() async throws {
        let player = MediaClipPlayer(source: "http://127.0.0.1:9/clip.mp4", options: box)
        #expect(MediaError.networkNotAllowed(path: "x").kind == .usage)
        await #expect(throws: MediaError.networkNotAllowed(path: "http://127.0.0.1:9/clip.mp4")) {
            try await player.prepare()
        }
    }

    @Test("a cancelled prepare throws CancellationError and opens nothing")
    func cancelled() async throws {
        let player = MediaClipPlayer(source: try clip(), options: box)

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await player.prepare()
        }

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(player.info == nil)
    }

    @Test("fit keeps the aspect ratio inside the box, even-sized", arguments: [
        (1080, 1920, 200, 120, 66, 120), (1920, 1080, 200, 120, 200, 112), (64, 48, 64, 48, 64, 48),
    ])
    func fit(width: Int, height: Int, boxWidth: Int, boxHeight: Int, fitWidth: Int, fitHeight: Int) {
        let size = MediaClipPlayer.fit(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight)
        #expect(size.width == fitWidth && size.height == fitHeight)
    }
}
