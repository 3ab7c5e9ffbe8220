#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FeedCore

/// Signals seen since the last look, set by C handlers (only plain stores happen there).
nonisolated(unsafe) private var pendingResize: sig_atomic_t = 0
nonisolated(unsafe) private var pendingStop: sig_atomic_t = 0

/// The terminal in full-screen mode for `feed play`: the alternate screen, raw input (no echo,
/// no line buffering, Ctrl-C arrives as a key), the cursor hidden. `restore()` puts everything
/// back; it is safe to call more than once, and SIGTERM/SIGINT/SIGHUP only set a flag the
/// draw loop reads, so the loop always gets to restore.
final class RawTerminal {
    private var saved = termios()
    private var active = false

    /// Enters full-screen mode.
    /// - Throws: `CommandFailure` (usage) when stdin or stdout is not a terminal.
    init() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure(description: "feed play needs a terminal: run it in one, or use --headless --script …",
                                 kind: .usage)
        }
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cc.6 = 0   // VMIN: reads return at once
        raw.c_cc.5 = 0   // VTIME
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        active = true
        signal(SIGWINCH) { _ in pendingResize = 1 }
        signal(SIGTERM) { _ in pendingStop = 1 }
        signal(SIGINT) { _ in pendingStop = 1 }
        signal(SIGHUP) { _ in pendingStop = 1 }
        try? StandardStream.output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    deinit { restore() }

    /// Leaves full-screen mode: colours reset, cursor shown, main screen back, input cooked.
    func restore() {
        guard active else { return }
        active = false
        try? StandardStream.output.write("\u{1B}[0m\u{1B}[?2026l\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        signal(SIGWINCH, SIG_DFL)
    }

    /// The terminal's size in cells.
    var size: (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// True once after each SIGWINCH.
    func takeResize() -> Bool {
        guard pendingResize != 0 else { return false }
        pendingResize = 0
        return true
    }

    /// True when SIGTERM, SIGINT or SIGHUP arrived.
    var stopRequested: Bool { pendingStop != 0 }

    /// The bytes typed since the last call (empty when none).
    func readInput() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }
}
