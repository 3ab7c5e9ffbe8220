import FeedCore
/// Reads the `--script` of a headless `feed play`: commands separated by commas, e.g.
/// `next,next,prev,pause,seek:+5,next`.
///
/// Steps: `next`, `prev` (or `previous`), `to:N` (a 0-based feed position), `pause`,
/// `resume`, `seek:±S` (seconds, fractions allowed), `mute` (toggles, as the `m` key),
/// `unmute`, `like`, `bookmark`. Spaces
/// around steps are ignored; case matters.
public enum PlayerScript {
    /// The commands of `text`, in order.
    /// - Throws: `PlayerScriptError.empty`, or `.badStep` naming the first bad step.
    public static func parse(_ text: String) throws(PlayerScriptError) -> [PlayerCommand] {
        let steps = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmed() }
        if steps.allSatisfy(\.isEmpty) { throw .empty }
        var commands: [PlayerCommand] = []
        for (offset, step) in steps.enumerated() {
            commands.append(try command(step, index: offset + 1))
        }
        return commands
    }

    private static func command(_ step: String, index: Int) throws(PlayerScriptError) -> PlayerCommand {
        switch step {
        case "next": return .move(.next)
        case "prev", "previous": return .move(.previous)
        case "pause": return .pause
        case "resume": return .resume
        case "mute": return .mute
        case "unmute": return .unmute
        case "like": return .like
        case "bookmark": return .bookmark
        default: break
        }
        if let argument = step.dropPrefix("to:") {
            guard let position = Int(argument), position >= 0 else {
                throw .badStep(index: index, step: step, expected: "expected a feed position like to:3")
            }
            return .move(.to(position))
        }
        if let argument = step.dropPrefix("seek:") {
            guard let sign = argument.first, sign == "+" || sign == "-",
                  let seconds = Double(argument), seconds.isFinite else {
                throw .badStep(index: index, step: step, expected: "expected signed seconds like seek:+5 or seek:-2.5")
            }
            return .seek(seconds: seconds)
        }
        throw .badStep(index: index, step: step,
                       expected: "expected next, prev, to:N, pause, resume, seek:±S, mute, unmute, like or bookmark")
    }
}

private extension String {
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }

    /// Without leading and trailing spaces, tabs and newlines.
    func trimmed() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
