import Foundation
import Testing

/// Samples of a Prometheus text exposition, parsed just enough for these tests: `# TYPE`
/// lines, and `name{k="v",…} value` lines with the format's three escapes.
struct Samples {
    struct Sample { let name: String; let labels: [String: String]; let value: Double }
    private(set) var samples: [Sample] = []
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                types[String(words[2])] = String(words[3])
                continue
            }
            if line.hasPrefix("#") { continue }
            var rest = Substring(line)
            let name = String(rest.prefix { $0 != "{" && $0 != " " })
            rest = rest.dropFirst(name.count)
            var labels: [String: String] = [:]
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    let key = String(rest.prefix { $0 != "=" })
                    rest = rest.dropFirst(key.count + 2)  // key="
                    var value = ""
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        if c == "\\", let e = rest.first {
                            rest = rest.dropFirst()
                            value.append(e == "n" ? "\n" : e)
                        } else {
                            value.append(c)
                        }
                    }
                    rest = rest.dropFirst()  // "
                    if rest.first == "," { rest = rest.dropFirst() }
                    labels[key] = value
                }
                rest = rest.dropFirst()
            }
            let number = rest.trimmingCharacters(in: .whitespaces)
            let value = number == "+Inf" ? Double.infinity : try #require(Double(number), "\(line)")
            samples.append(Sample(name: name, labels: labels, value: value))
        }
    }

    /// The value of the one sample named `name` with exactly `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// Every sample named `name`, in the text's order.
    func all(_ name: String) -> [Sample] { samples.filter { $0.name == name } }

    /// A family's `# TYPE`.
    func type(_ name: String) -> String? { types[name] }
}
