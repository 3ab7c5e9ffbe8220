import Synchronization

/// One line of progress rewritten in place (`\r`, then `ESC[K` to clear what a longer line
/// left), drawn only when the stream is a terminal, so logs and pipes stay clean. Write
/// failures are ignored: progress is a courtesy. `draw` may run on a worker thread and
/// `finish` on the command's: `shown` is shared.
final class TerminalLine: Sendable {
    /// Whether anything is drawn.
    let enabled: Bool
    private let stream: StandardStream
    private let shown = Atomic<Bool>(false)

    /// A line on `stream` (stderr by default).
    init(stream: StandardStream = .error) {
        self.stream = stream
        enabled = stream.isTerminal
    }

    /// Redraws the line with `text`.
    func draw(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        try? stream.write("\r" + text() + "\u{1B}[K")
        shown.store(true, ordering: .releasing)
    }

    /// Ends the line (a newline) if one was drawn, so what follows starts on its own line.
    func finish() {
        guard shown.exchange(false, ordering: .acquiringAndReleasing) else { return }
        try? stream.write("\n")
    }
}
