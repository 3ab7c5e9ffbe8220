/// Why a live stream operation failed.
public enum LiveError: FeedFailure, Equatable {
    /// No stream has this id (or the caller may not see it).
    case notFound(id: Int64)
    /// The stream ended: it takes no publisher and no new key.
    case ended(id: Int64)
    /// A title that is empty, too long, or holds control characters.
    case invalidTitle(String)
    /// The catalog failed.
    case roll(RollError)

    public var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .ended: .conflict
        case .invalidTitle: .usage
        case let .roll(error): error.kind
        }
    }

    public var description: String {
        switch self {
        case let .notFound(id): "live stream \(id): no such stream"
        case let .ended(id): "live stream \(id): the stream has ended"
        case let .invalidTitle(reason): "title: \(reason)"
        case let .roll(error): error.description
        }
    }
}
