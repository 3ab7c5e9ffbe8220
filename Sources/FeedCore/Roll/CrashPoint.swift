import Foundation

/// Fault injection for the crash-safety tests: when `FEED_ROLL_CRASH_AT` names a step, the
/// process kills itself with SIGKILL right there, exactly as a `kill -9` would.
///
/// Steps: `add.staged` (copy fsync'd in .incoming), `add.renamed` (file in recordings/, no
/// row), `rm.trashed` (file in .trash, row still there), `rm.deleted` (row gone, file in .trash).
enum CrashPoint: String {
    case addStaged = "add.staged", addRenamed = "add.renamed", removeTrashed = "rm.trashed", removeDeleted = "rm.deleted"

    private static let armed = ProcessInfo.processInfo.environment["FEED_ROLL_CRASH_AT"].flatMap(CrashPoint.init(rawValue:))

    /// Dies here if this step is armed.
    static func reach(_ point: CrashPoint) {
        if armed == point { kill(getpid(), SIGKILL) }
    }
}
