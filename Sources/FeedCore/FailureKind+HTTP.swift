/// The one table between failure kinds and a feed server's HTTP statuses (docs/errors.md): the
/// server answers a failure with ``httpStatus``, and a client reading an answer whose body names
/// no kind (a proxy's, or the HTTP layer's own refusal) reads the status back with
/// ``init(httpStatus:)``.
///
/// Only for feed's own API. A URL fetched as an input (a remote feed, a clip, a page) is not a
/// feed server: there a status says only whether the input is there (404 and 410: a missing
/// input; anything else: reading failed), as ``FeedRemote``'s `RemoteError` reports it.
extension FailureKind {
    /// The HTTP status a feed server answers a failure of this kind with.
    public var httpStatus: Int {
        switch self {
        case .usage: 400
        case .invalidData: 422
        case .notFound, .missingInput: 404
        case .conflict: 409
        case .tooLarge: 413
        case .unauthorized: 401
        case .forbidden: 403
        case .unavailable, .interrupted: 503
        case .bug, .cannotCreate, .io, .fault: 500
        }
    }

    /// The kind a feed server's answer `status` stands for when its body names none: the table
    /// read backwards (where two kinds share a status, the one a client can act on: `notFound`,
    /// `unavailable`, `io`), 410 as 404, 423 (an upload another request holds) as 409, any other
    /// 4xx as `usage` and any other status as `io`.
    public init(httpStatus status: Int) {
        switch status {
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 404, 410: self = .notFound
        case 409, 423: self = .conflict
        case 413: self = .tooLarge
        case 422: self = .invalidData
        case 503: self = .unavailable
        case 400..<500: self = .usage
        default: self = .io
        }
    }
}
