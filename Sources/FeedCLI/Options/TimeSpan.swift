import ArgumentParser

/// A length of time given on the command line: whole seconds, or with a unit s, m, h or d
/// (`90`, `15m`, `1h`, `7d`).
struct TimeSpan: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// The length in seconds.
    let seconds: Int64

    init(seconds: Int64) { self.seconds = seconds }

    init?(argument: String) {
        var text = Substring(argument.lowercased())
        var unit: Int64 = 1
        if let last = text.last, let scale = ["s": 1, "m": 60, "h": 3600, "d": 86_400][String(last)] {
            unit = Int64(scale)
            text = text.dropLast()
        }
        guard let value = Int64(text), value >= 0 else { return nil }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        self.seconds = seconds
    }

    var description: String {
        for (scale, unit) in [(Int64(86_400), "d"), (3600, "h"), (60, "m")] where seconds >= scale && seconds % scale == 0 {
            return "\(seconds / scale)\(unit)"
        }
        return "\(seconds)s"
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
