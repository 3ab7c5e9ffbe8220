import Foundation

/// Prometheus' text exposition format, version 0.0.4: per metric family a `# HELP` and a
/// `# TYPE` line, then its samples, `name{label="value",…} number`, one per line.
struct MetricsText {
    /// The media type of the text, for `Content-Type`.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// What has been written so far.
    private(set) var text = ""

    /// Starts the family `name` of `type` (counter, gauge, histogram) with its help line.
    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample of the current family.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    /// A sample with an integer value.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Int) {
        sample(name, labels, Double(value))
    }

    /// A sample with no labels.
    mutating func sample(_ name: String, _ value: Double) {
        sample(name, [], value)
    }

    /// A sample with no labels and an integer value.
    mutating func sample(_ name: String, _ value: Int) {
        sample(name, [], Double(value))
    }

    /// A value as the format writes numbers: integers without a fraction, `+Inf`, `NaN`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value with `\`, `"` and line feeds escaped.
    static func escapedLabel(_ value: String) -> String { escaped(value, quotes: true) }

    /// A help text with `\` and line feeds escaped.
    static func escapedHelp(_ value: String) -> String { escaped(value, quotes: false) }

    /// `value` with `\`, line feeds and, when asked, `"` escaped, scalar by scalar: `\r\n` is
    /// one `Character`, but its line feed must be escaped all the same.
    private static func escaped(_ value: String, quotes: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\"" where quotes: out.append(contentsOf: "\\\"".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
