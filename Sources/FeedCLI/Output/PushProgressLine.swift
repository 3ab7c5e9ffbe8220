import FeedClient
import Foundation

/// The rewritten stderr line of `feed push` while a file goes up:
/// `a.mp4   43%  12.3 MB / 28.6 MB  5.1 MB/s`. Drawn only when stderr is a terminal.
final class PushProgressLine: Sendable {
    private let line: TerminalLine
    private let started = ContinuousClock.now

    init(stream: StandardStream = .error) {
        line = TerminalLine(stream: stream)
    }

    /// Redraws the line for `name`.
    func show(_ name: String, _ progress: UploadProgress) {
        line.draw(Self.text(name, progress, seconds: (ContinuousClock.now - self.started) / .seconds(1)))
    }

    /// Ends the line if one was drawn.
    func finish() {
        line.finish()
    }

    static func text(_ name: String, _ progress: UploadProgress, seconds: Double) -> String {
        let held = max(progress.offset, progress.resumedFrom + progress.sent)
        let percent = String(format: "%3.0f%%", progress.length == 0 ? 100 : min(100, Double(held) * 100 / Double(progress.length)))
        let rate = seconds > 0.2 ? "  \(RollOutput.bytes(Int64(Double(progress.sent) / seconds)))/s" : ""
        return "\(name)  \(percent)  \(RollOutput.bytes(min(held, progress.length))) / \(RollOutput.bytes(progress.length))\(rate)"
    }
}
