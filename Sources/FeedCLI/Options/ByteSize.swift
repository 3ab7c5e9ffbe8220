import ArgumentParser

/// A size given on the command line: whole bytes, or with a binary suffix K, M, G or T
/// (`512M`, `8G`; a trailing `B` or `iB` is allowed: `8GiB`).
struct ByteSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// The size in bytes.
    let bytes: Int64

    init(bytes: Int64) { self.bytes = bytes }

    init?(argument: String) {
        var text = Substring(argument.uppercased())
        if text.hasSuffix("IB") { text = text.dropLast(2) } else if text.hasSuffix("B") { text = text.dropLast() }
        var shift: Int64 = 0
        if let unit = text.last, let index = "KMGT".firstIndex(of: unit) {
            shift = Int64("KMGT".distance(from: "KMGT".startIndex, to: index) + 1) * 10
            text = text.dropLast()
        }
        guard let value = Int64(text), value >= 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    var description: String {
        for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
