import FeedCore

/// A failure found by a command itself rather than by FeedCore, with its exit status.
struct CommandFailure: FeedFailure {
    /// The one-line message, without the "feed: " prefix.
    var description: String
    var exitStatus: ExitStatus
}
