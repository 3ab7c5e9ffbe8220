import ArgumentParser

/// `--json` / `--ndjson`: the machine-readable forms of a command's output.
struct OutputFormat: ParsableArguments {
    /// The chosen form; `.text` is the human table.
    enum Mode: String, EnumerableFlag {
        case text, json, ndjson

        static func help(for value: Mode) -> ArgumentHelp? {
            switch value {
            case .text: "Aligned text for people."
            case .json: "One JSON array."
            case .ndjson: "One JSON object per line."
            }
        }
    }

    @Flag var mode: Mode = .text
}
