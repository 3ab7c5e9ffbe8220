import FeedCore
/// How many colours the terminal can show.
public enum TerminalColorMode: String, Sendable, Equatable, CaseIterable {
    /// 24-bit colour (`CSI 38;2;r;g;b m`).
    case truecolor
    /// The xterm 256-colour palette (`CSI 38;5;n m`): the 6×6×6 cube and the grey ramp.
    case palette256 = "256"

    /// Truecolor when `COLORTERM` says so (`truecolor` or `24bit`), else the 256-colour palette.
    public static func detect(environment: [String: String]) -> TerminalColorMode {
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": .truecolor
        default: .palette256
        }
    }
}
