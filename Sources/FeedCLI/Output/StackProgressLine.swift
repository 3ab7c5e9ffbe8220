import FeedCore
import Foundation
import Synchronization

/// The one rewritten line `feed stack` shows on stderr while it works:
/// ` 42%  126/300 frames  87.3 fps  ETA 0:02`. Drawn only when the stream is a terminal;
/// elsewhere every call does nothing, so logs and pipes stay clean.
/// `show` runs on the stacking thread, `finish` on the command's: `shown` is shared.
final class StackProgressLine: Sendable {
    /// Whether anything is drawn.
    let enabled: Bool
    private let stream: StandardStream
    private let shown = Atomic<Bool>(false)

    /// Draws on `stream` (stderr by default) only if it is a terminal.
    init(stream: StandardStream = .error) {
        self.stream = stream
        enabled = stream.isTerminal
    }

    /// Redraws the line with `progress`. Write failures are ignored: progress is a courtesy.
    func show(_ progress: StackProgress) {
        guard enabled else { return }
        // \r back to the start, ESC[K clears what a longer previous line left.
        try? stream.write("\r" + Self.text(progress) + "\u{1B}[K")
        shown.store(true, ordering: .releasing)
    }

    /// Redraws the line from a fraction alone (a job on a server): percent and time left.
    func show(fraction: Double, elapsed: Double) {
        guard enabled else { return }
        let eta = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : nil
        try? stream.write("\r" + String(format: "%3.0f%%", min(1, max(0, fraction)) * 100) + "  ETA \(Self.clock(eta))" + "\u{1B}[K")
        shown.store(true, ordering: .releasing)
    }

    /// Ends the line (a newline) if one was drawn, so what follows starts on its own line.
    func finish() {
        guard shown.exchange(false, ordering: .acquiringAndReleasing) else { return }
        try? stream.write("\n")
    }

    /// The line's text: percent, frames done of expected, frames per second, time left
    /// ("-:--" until it can be estimated).
    static func text(_ progress: StackProgress) -> String {
        let percent = String(format: "%3.0f%%", progress.fraction * 100)
        let fps = String(format: "%.1f fps", progress.fps)
        return "\(percent)  \(progress.frames)/\(progress.expectedFrames) frames  \(fps)  ETA \(clock(progress.eta))"
    }

    /// "m:ss" (or "h:mm:ss" from an hour), "-:--" for nil.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "-:--" }
        let total = Int(seconds.rounded(.up))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
