#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the process knows about where its output goes: width and whether to use colour.
enum Terminal {
    /// The width used on a terminal whose size cannot be read and `$COLUMNS` is not set.
    static let defaultWidth = 80

    /// Columns available on stdout when it is a terminal: its width (TIOCGWINSZ), else
    /// `$COLUMNS`, else 80. Nil when stdout is a pipe or a file: output that is read by another
    /// program is never cut to a width (as `ls`, `git` and `ps` do), whatever `$COLUMNS` says.
    static func width(environment: [String: String] = Terminal.environment) -> Int? {
        guard StandardStream.output.isTerminal else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
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
