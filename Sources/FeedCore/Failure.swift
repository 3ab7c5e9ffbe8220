/// What kind of failure an error is, independent of who reports it. The CLI maps each kind
/// to one exit status and the server to one HTTP status, each in one place; FeedCore itself
/// never decides either.
///
/// | kind | CLI exit | HTTP |
/// |---|---|---|
/// | usage | 64 | 400 |
/// | invalidData | 65 | 422 |
/// | notFound | 65 | 404 |
/// | conflict | 65 | 409 |
/// | tooLarge | 65 | 413 |
/// | missingInput | 66 | 404 |
/// | unavailable | 70 | 503 |
/// | bug | 70 | 500 |
/// | cannotCreate | 73 | 500 |
/// | io | 74 | 500 |
/// | unauthorized | 77 | 401 |
/// | forbidden | 77 | 403 |
/// | interrupted | 130 | 503 |
/// | fault | 70 | as asked |
public enum FailureKind: String, Sendable, CaseIterable, Codable {
    /// A request is malformed: an option out of range, an empty name, a bad script step.
    case usage
    /// The input is readable but wrong: invalid JSON, a wrong type, not a media file, a damaged database.
    case invalidData
    /// No item has the id that was asked for (a feed video, a recording).
    case notFound
    /// The request clashes with what is already there (the same bytes already in the roll).
    case conflict
    /// An input is over a limit: an upload over the server's size, bytes past an upload's length.
    case tooLarge
    /// A request came without the credentials it needs, or with ones that are not valid.
    case unauthorized
    /// The credentials are valid but do not allow this: a token's scope, another user's row,
    /// a signed link that expired or was changed.
    case forbidden
    /// A named input file does not exist.
    case missingInput
    /// Something feed needs is missing or broken (FFmpeg's libraries cannot be loaded).
    case unavailable
    /// A bug: feed reached a state it should never reach.
    case bug
    /// An output file or folder cannot be created (it exists, its folder is missing or read-only).
    case cannotCreate
    /// Reading or writing failed (disk full, permissions, a database that cannot be written).
    case io
    /// The work was cancelled (a signal, a cancelled task) and left nothing behind.
    case interrupted
    /// A failure asked for on purpose (`feed serve --faults`, `X-Feed-Fault`): a test of the
    /// client's handling, never a real one.
    case fault
}

/// Every typed error FeedCore throws (`FeedError`, `MediaError`, `RollError`, …) conforms,
/// so the CLI and the server each turn any of them into a one-line message and a status in
/// one place. The message names the file or id involved and no command-line flag.
public protocol FeedFailure: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    var kind: FailureKind { get }
}
