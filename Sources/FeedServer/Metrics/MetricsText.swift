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
    static func escapedLabel(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// A help text with `\` and line feeds escaped.
    static func escapedHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
