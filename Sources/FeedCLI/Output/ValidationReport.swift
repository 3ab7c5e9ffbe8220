import FeedCore
import Foundation

/// How `validate` reports its results: the summary line and the `--json` array.
enum ValidationReport {
    /// "3 files checked: 2 errors in 1 file, 1 warning, 1 not readable" (for stderr).
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
