import ArgumentParser
import FeedCore

/// The one place where an error becomes a message and an exit status.
///
/// - `FeedFailure` (every FeedCore error and the CLI's own): `feed: <one line>` on stderr (in the
///   words of `FailureMessage`, control characters from file names made printable, so it stays one
///   line) and the exit status of its kind.
/// - ArgumentParser usage errors: `feed: <message>` plus the usage lines on stderr, 64.
/// - `--help` / `--version`: the text on stdout, 0.
/// - `ExitCode` thrown on purpose: that status, silently.
/// - Anything else is a bug: `feed: internal error: …`, 70.
struct FailureReport {
    /// Text for stdout (help, version) or nil.
    var standardOutput: String?
    /// Text for stderr, newline-terminated, or nil.
    var standardError: String?
    /// The process exit status.
    var status: Int32

    /// Classifies `error` thrown while parsing or running a subcommand of `root`.
    init(error: Error, root: ParsableCommand.Type) {
        if let failure = error as? FeedFailure {
            self.init(standardOutput: nil, standardError: "feed: \(Printable.text(FailureMessage.text(failure)))\n",
                      status: ExitStatus(failure.kind).rawValue)
            return
        }
        if let code = error as? ExitCode {
            self.init(standardOutput: nil, standardError: nil, status: code.rawValue)
            return
        }
        let code = root.exitCode(for: error)
        var text = root.fullMessage(for: error)
        if code == .success {
            self.init(standardOutput: text.isEmpty ? nil : text + "\n", standardError: nil, status: 0)
        } else if code == .validationFailure {
            if text.hasPrefix("Error: ") { text = "feed: " + text.dropFirst("Error: ".count) }
            self.init(standardOutput: nil, standardError: text + "\n", status: ExitStatus.usage.rawValue)
        } else {
            self.init(standardOutput: nil, standardError: "feed: internal error: \(error)\n", status: ExitStatus.software.rawValue)
        }
    }

    init(standardOutput: String?, standardError: String?, status: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }

    /// Writes the texts (ignoring write failures: there is nowhere left to report them).
    func emit() {
        if let standardOutput { try? StandardStream.output.write(standardOutput) }
        if let standardError { try? StandardStream.error.write(standardError) }
    }
}
