import FeedCore
import Foundation

/// What `validate` found in one file: its problems, or why it could not be read.
struct ValidationResult {
    /// The path as given.
    var file: String
    /// Every problem, errors and warnings, in file order.
    var problems: [FeedProblem]
    /// Why the file could not be checked at all (missing, unreadable).
    var failure: FeedError?

    /// True when the file was read and has no errors (warnings allowed).
    var ok: Bool { failure == nil && !problems.contains { $0.severity == .error } }

    /// Checks one file ('-' is standard input) fully, never throwing.
    static func check(_ file: String, format: FeedFormat?) -> ValidationResult {
        if file == "-" {
            let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
            return ValidationResult(file: file, problems: FeedLoader.validate(bytes: bytes, source: "<stdin>", format: format))
        }
        do {
            return ValidationResult(file: file, problems: try FeedLoader.validate(path: file, format: format))
        } catch {
            return ValidationResult(file: file, problems: [], failure: error)
        }
    }

    /// The exit status for all results: the first unreadable file's (66, 74), else 65 when any
    /// file has an error, else 0.
    static func exitStatus(_ results: [ValidationResult]) -> ExitStatus? {
        if let failure = results.lazy.compactMap(\.failure).first { return failure.exitStatus }
        return results.allSatisfy(\.ok) ? .ok : .dataError
    }

    /// "3 files checked: 2 errors and 1 warning in 1 file, 1 missing" (for stderr).
    static func summary(_ results: [ValidationResult], style: Style) -> String {
        let problems = results.flatMap(\.problems)
        let errors = problems.count { $0.severity == .error }
        let warnings = problems.count - errors
        let broken = results.count { $0.failure == nil && !$0.ok }
        let unreadable = results.count { $0.failure != nil }
        var parts: [String] = []
        if errors > 0 { parts.append(style.red(plural(errors, "error")) + " in " + plural(broken, "file")) }
        if warnings > 0 { parts.append(style.yellow(plural(warnings, "warning"))) }
        if unreadable > 0 { parts.append(style.red("\(unreadable) not readable")) }
        let head = plural(results.count, "file") + " checked"
        return head + ": " + (parts.isEmpty ? "no problems" : parts.joined(separator: ", "))
    }

    /// Every result as one JSON array, newline-terminated.
    static func json(_ results: [ValidationResult]) -> [UInt8] {
        let array: [[String: Any]] = results.map { result in
            [
                "file": result.file,
                "ok": result.ok,
                "error": result.failure.map { $0.description } ?? NSNull(),
                "problems": result.problems.map { problem in
                    [
                        "line": problem.line, "column": problem.column, "path": problem.path,
                        "message": problem.message, "severity": problem.severity.rawValue,
                    ] as [String: Any]
                },
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: array, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
