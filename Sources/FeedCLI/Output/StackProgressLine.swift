import FeedCore
import Foundation

/// The one rewritten line `feed stack` shows on stderr while it works:
/// ` 42%  126/300 frames  87.3 fps  ETA 0:02`, a ``TerminalLine`` (drawn only on a terminal).
final class StackProgressLine: Sendable {
    private let line: TerminalLine

    /// Whether anything is drawn.
    var enabled: Bool { line.enabled }

    /// Draws on `stream` (stderr by default) only if it is a terminal.
    init(stream: StandardStream = .error) {
        line = TerminalLine(stream: stream)
    }

    /// Redraws the line with `progress`.
    func show(_ progress: StackProgress) {
        line.draw(Self.text(progress))
    }

    /// Redraws the line from a fraction alone (a job on a server): percent and time left.
    func show(fraction: Double, elapsed: Double) {
        let eta = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : nil
        line.draw(String(format: "%3.0f%%", min(1, max(0, fraction)) * 100) + "  ETA \(Self.clock(eta))")
    }

    /// Ends the line if one was drawn.
    func finish() {
        line.finish()
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
