import FeedCore

/// Everything that can go wrong with events, the For You ranking and its models. Each message
/// is one line naming the event (its place in the batch and its id), field, file or version
/// involved; the kind decides the exit status (CLI) and the HTTP status (server).
public enum RecsError: FeedFailure, Equatable {
    /// One event of a batch is wrong: its place (from 0), its id when it has one, the field and
    /// the problem. The whole batch is refused.
    case invalidEvent(index: Int, id: String?, field: String, problem: String)
    /// A batch that is no JSON array of objects and no NDJSON: what was found where.
    case notEvents(String)
    /// More events in one batch than ``EventBatch/maxEvents``.
    case tooManyEvents(Int)
    /// A batch over ``EventBatch/maxBytes``.
    case batchTooLarge(Int)
    /// A For You page or an event batch from a caller who is no user and names no device.
    case needsActor(String)
    /// A parameter out of its range (`limit`, `holdout`): its name and the problem.
    case invalidParameter(String, String)
    /// A cursor this server did not write.
    case invalidCursor(String)
    /// A model in the catalog that cannot be read: its version and why.
    case unreadableModel(version: Int64, String)
    /// An events file that cannot be read, or a line of it that is wrong: the file, the line
    /// (from 1) and the problem.
    case invalidEventsFile(path: String, line: Int, String)
    /// The catalog itself failed.
    case store(RollError)

    public var kind: FailureKind {
        switch self {
        case .invalidEvent, .notEvents, .needsActor, .invalidParameter, .invalidCursor: .usage
        case .tooManyEvents, .batchTooLarge: .tooLarge
        case .unreadableModel, .invalidEventsFile: .invalidData
        case let .store(error): error.kind
        }
    }

    public var description: String {
        switch self {
        case let .invalidEvent(index, id, field, problem):
            "event \(index)\(id.map { " (id \"\($0)\")" } ?? ""): \(field) \(problem)"
        case let .notEvents(problem): "the events are not a JSON array of objects or NDJSON: \(problem)"
        case let .tooManyEvents(count): "\(count) events in one batch; at most \(EventBatch.maxEvents)"
        case let .batchTooLarge(bytes): "a batch of \(bytes) bytes; at most \(EventBatch.maxBytes) (1 MiB)"
        case let .needsActor(what): "\(what) needs a viewer: send a user's JWT (or X-Feed-User to a server with no key), or name the device"
        case let .invalidParameter(name, problem): "\(name) \(problem)"
        case let .invalidCursor(text): "cursor \"\(text.prefix(40))\" is not one this server wrote"
        case let .unreadableModel(version, problem): "recommendation model \(version) cannot be read: \(problem)"
        case let .invalidEventsFile(path, line, problem): line > 0 ? "\(path):\(line): \(problem)" : "\(path): \(problem)"
        case let .store(error): error.description
        }
    }
}
