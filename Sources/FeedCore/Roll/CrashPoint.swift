import Foundation

/// Fault injection for the crash-safety tests: when `FEED_ROLL_CRASH_AT` names a step, the
/// process sends itself a signal right there: SIGKILL, exactly as a `kill -9` would, or with
/// `FEED_ROLL_CRASH_SIGNAL=INT` or `TERM` that signal, as a Ctrl-C or `kill` would (the step
/// then waits 0.1 s so that a handler sees it before the work goes on).
///
/// Steps: `add.staged` (copy fsync'd in .incoming), `add.renamed` (file in recordings/, no
/// row), `rm.trashed` (file in .trash, row still there), `rm.deleted` (row gone, file in .trash),
/// `stack.written` (`feed stack --save`: the output renamed into place, the save not started).
/// In a bucket, `add.staged` is every part uploaded and the multipart upload not completed,
/// `add.renamed` the object completed and no row; and `publish.members` (a set's segments and
/// media uploaded, no playlist yet), `publish.playlists` (its playlists too, not its marker) and
/// `upload.parts` (a tus sync's whole parts uploaded, its state not yet rewritten).
public enum CrashPoint: String, Sendable {
    case addStaged = "add.staged", addRenamed = "add.renamed", removeTrashed = "rm.trashed", removeDeleted = "rm.deleted"
    case stackWritten = "stack.written"
    case publishMembers = "publish.members", publishPlaylists = "publish.playlists", uploadParts = "upload.parts"

    private static let armed = ProcessInfo.processInfo.environment["FEED_ROLL_CRASH_AT"].flatMap(CrashPoint.init(rawValue:))

    private static let signal: Int32 = switch ProcessInfo.processInfo.environment["FEED_ROLL_CRASH_SIGNAL"] {
    case "INT": SIGINT
    case "TERM": SIGTERM
    default: SIGKILL
    }

    /// Sends the armed signal if this step is armed.
    public static func reach(_ point: CrashPoint) {
        guard armed == point else { return }
        kill(getpid(), signal)
        usleep(100_000)
    }
}
