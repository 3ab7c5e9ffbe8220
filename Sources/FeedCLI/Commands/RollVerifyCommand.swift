import ArgumentParser
import FeedCore

/// `feed roll verify [--fix]`: check every file against its row and every row against its file.
struct RollVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the roll: missing files, changed files, orphans, crash leftovers.",
        discussion: """
            Prints one line per problem and exits 1 if there is any. Cached HLS ladders, \
            posters and fast-start copies (feed serve's moov-first copies in .faststart/) of \
            recordings that are gone or changed count as problems too. --fix repairs \
            everything found in one pass: drops rows whose file is gone, finishes interrupted \
            removals, adopts orphan files (probing them), records changed files as they are now, \
            empties .incoming/ and .trash/ and deletes the stale caches (they are made again on \
            demand); it exits 1 only if a repair failed (the `not fixed:` lines say why).

            In a folder every recording's bytes are hashed and compared with its sha256; in a \
            bucket (--media s3://…) each object's existence and size are checked, and --deep \
            fetches and hashes them too.

            EXAMPLES:
              feed roll verify
              feed roll verify --fix
            """
    )

    @OptionGroup var store: CatalogOptions

    @Flag(help: "Repair what is found.")
    var fix = false

    @Flag(help: "Hash every recording's bytes, in a bucket too (a folder's always are).")
    var deep = false

    func run() async throws {
        try await RollCommand.withRoll(fix ? .readWrite : .readOnly, store: store) { roll in
            let report: RollReport
            if fix {
                let repair = try await roll.fix(deep: deep ? true : nil)
                for problem in repair.repaired {
                    try StandardStream.output.write("fixed: \(problem) — \(problem.repair)\n")
                }
                for (problem, reason) in repair.failed {
                    try StandardStream.output.write("not fixed: \(problem): \(reason)\n")
                }
                report = repair.after
            } else {
                report = try await roll.verify(deep: deep ? true : nil)
            }
            for problem in report.problems {
                try StandardStream.output.write("problem: \(problem)\n")
            }
            let count = report.problems.count
            try StandardStream.error.write("checked \(report.checked) recording\(report.checked == 1 ? "" : "s"): \(count == 0 ? "no" : String(count)) problem\(count == 1 ? "" : "s")\n")
            if count > 0 { throw ExitCode(ExitStatus.failure.rawValue) }
        }
    }
}
