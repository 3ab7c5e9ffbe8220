/// Why a job could not be queued, cancelled or retried. The CLI (`feed jobs …`) and the server
/// (`/jobs…`) report these messages word for word; only the exit code or status differs.
public enum JobError: FeedFailure, Equatable {
    /// The request is not JSON, or not the shape its kind takes (`what` says where).
    case malformed(kind: JobKind, String)
    /// The request is well formed but cannot run: an option out of range, options that
    /// contradict each other, a source that is not finished.
    case invalid(kind: JobKind, String)
    /// No kind of job has this name.
    case unknownKind(String)
    /// No job has this id.
    case notFound(id: String)
    /// The job has ended (or another caller cancelled it first): there is nothing to cancel.
    case notCancellable(id: Int64, state: Job.State)
    /// Only a failed, dead or cancelled job can be queued again.
    case notRetryable(id: Int64, state: Job.State)

    public var kind: FailureKind {
        switch self {
        case .malformed, .unknownKind: .usage
        case .invalid: .invalidData
        case .notFound: .notFound
        case .notCancellable, .notRetryable: .conflict
        }
    }

    public var description: String {
        switch self {
        case let .malformed(kind, problem): "\(kind.rawValue) job request: \(problem)"
        case let .invalid(kind, problem): "\(kind.rawValue) job request: \(problem)"
        case let .unknownKind(name): "unknown job kind \(name): use \(JobKind.allCases.map(\.rawValue).joined(separator: ", "))"
        case let .notFound(id): "no job with id \(id)"
        case let .notCancellable(id, state): "job \(id) is \(state.rawValue); nothing to cancel"
        case let .notRetryable(id, state): "job \(id) is \(state.rawValue); only a failed, dead or cancelled job can be retried"
        }
    }
}
