import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

@Suite("StackJob: stack, then save to the roll; async, cancellable")
struct StackJobTests {
    @Test("the async form streams progress and saves the output with its sources and options")
    func streamsAndSaves() async throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 20, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 20, colour: .blue)
        let roll = try RollTestSupport.roll(in: folder)
        let job = StackJob(front: front, back: back, options: StackOptions(output: folder.path("out.mp4")), roll: roll, title: "both")

        let (progress, outcome) = job.start()
        var seen: [StackProgress] = []
        for await step in progress { seen.append(step) }
        let done = try await outcome.value

        #expect(!seen.isEmpty && seen.last?.frames == done.result.frames)
        let recording = try #require(done.recording)
        #expect(recording.title == "both")
        #expect(recording.sources == [front, back])
        #expect(recording.stackOptions?.contains(#""layout":"vstack""#) == true)
        #expect(try await roll.recording(id: recording.id) == recording)
        #expect(FileManager.default.fileExists(atPath: roll.path(of: recording)))
        #expect(try await roll.verify().isClean)
    }

    @Test("cancelling the task stops the stack: interrupted, no output, no temporary file, no row")
    func cancelledTaskLeavesNothing() async throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 240, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 240, colour: .blue)
        let roll = try RollTestSupport.roll(in: folder)
        var options = StackOptions(output: folder.path("out.mp4"))
        options.preset = "veryslow"
        let before = folder.contents()

        let (progress, outcome) = StackJob(front: front, back: back, options: options, roll: roll).start()
        for await step in progress where step.frames >= 2 {
            outcome.cancel()
            break
        }
        let result = await outcome.result

        #expect(throws: StackError.interrupted) { try result.get() }
        #expect(folder.contents() == before, "\(folder.contents())")
        #expect(try await roll.count() == 0)
    }

    @Test("an isCancelled flag that turns true before the save leaves no output and no row")
    func flagBeforeSave() async throws {
        let folder = try ScratchFolder()
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 10, colour: .red)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 10, colour: .blue)
        let roll = try RollTestSupport.roll(in: folder)
        let job = StackJob(front: front, back: back, options: StackOptions(output: folder.path("out.mp4")), roll: roll)
        let frames = CountingFlag()

        await #expect(throws: StackError.interrupted) {
            // Cancelled once the last frame has been reported: the stack completes, the save must not start.
            _ = try await job.run(progress: { if $0.frames >= 10 { frames.set() } }, isCancelled: { frames.isSet })
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.mp4")))
        #expect(try await roll.count() == 0)
    }
}

/// A flag the stacking thread sets and the job polls.
private final class CountingFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
