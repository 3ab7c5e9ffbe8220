#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the process knows about where its output goes: width and whether to use colour.
enum Terminal {
    /// The width used when stdout is not a terminal and `$COLUMNS` is not set.
    static let defaultWidth = 100

    /// Columns available on stdout: the terminal's width (TIOCGWINSZ) when stdout is a TTY,
    /// else `$COLUMNS`, else 100.
    static func width(environment: [String: String] = Terminal.environment) -> Int {
        if StandardStream.output.isTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
                return Int(size.ws_col)
            }
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return defaultWidth
    }

    /// Whether to colour text written to `stream`: only on a terminal, never with `NO_COLOR`
    /// set (to anything non-empty, as no-color.org says) or `TERM=dumb`.
    static func usesColor(_ stream: StandardStream, environment: [String: String] = Terminal.environment) -> Bool {
        guard stream.isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// The process environment.
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
