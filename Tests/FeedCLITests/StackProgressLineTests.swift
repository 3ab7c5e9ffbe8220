@testable import FeedCLI
@testable import FeedCore
import Testing

@Suite("StackProgressLine")
struct StackProgressLineTests {
    @Test("percent, frames, fps and time left")
    func text() {
        let progress = StackProgress(frames: 150, expectedFrames: 300, elapsed: 2)

        #expect(StackProgressLine.text(progress) == " 50%  150/300 frames  75.0 fps  ETA 0:02")
    }

    @Test("no ETA before the first frame")
    func start() {
        let progress = StackProgress(frames: 0, expectedFrames: 300, elapsed: 0)

        #expect(StackProgressLine.text(progress) == "  0%  0/300 frames  0.0 fps  ETA -:--")
    }

    @Test("time left as m:ss, h:mm:ss from an hour, rounded up", arguments: [
        (0.2, "0:01"), (59.0, "0:59"), (61.5, "1:02"), (3600.0, "1:00:00"), (3725.0, "1:02:05"),
    ])
    func clock(seconds: Double, expected: String) {
        #expect(StackProgressLine.clock(seconds) == expected)
    }
}
