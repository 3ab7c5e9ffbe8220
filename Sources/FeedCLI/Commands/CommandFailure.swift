import FeedCore

/// A failure found by a command itself rather than by FeedCore: its message and its kind
/// (which `ExitStatus(kind)` turns into the exit status, as for FeedCore's errors).
struct CommandFailure: FeedFailure {
    /// The one-line message, without the "feed: " prefix.
    var description: String
    var kind: FailureKind
}
