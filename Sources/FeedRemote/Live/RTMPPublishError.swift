import FeedCore

/// Why publishing to an RTMP server failed. Each case names the URL with its key hidden.
public enum RTMPPublishError: FeedFailure, Equatable {
    /// The URL is not `rtmp://host[:port]/app/key`.
    case badURL(_ url: String, reason: String)
    /// No connection could be made, or the server did not answer in time.
    case cannotConnect(_ url: String, reason: String)
    /// The server refused the stream (a wrong key, a stream already live, one that ended):
    /// its status code and description.
    case refused(_ url: String, code: String, description: String)
    /// The connection broke, or the server closed it (a stream ended elsewhere), mid-stream.
    case lost(_ url: String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .badURL: .usage
        case .cannotConnect: .unavailable
        case .refused: .forbidden
        case .lost: .io
        }
    }

    public var description: String {
        switch self {
        case let .badURL(url, reason): "\(url): \(reason)"
        case let .cannotConnect(url, reason): "\(url): cannot connect: \(reason)"
        case let .refused(url, code, description): "\(url): refused: \(code)\(description.isEmpty ? "" : " (\(description))")"
        case let .lost(url, reason): "\(url): the connection was lost: \(reason)"
        }
    }
}
