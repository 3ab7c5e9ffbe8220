import FeedCore

/// What can go wrong reading a URL. Each message is one line naming the URL.
public enum RemoteError: FeedFailure, Equatable {
    /// `--allow-network` was not given for an http(s) source.
    case networkNotAllowed(url: String)
    /// The server answered with an error status.
    case status(url: String, code: Int, reason: String)
    /// More than ``HTTPFetch/maxRedirects`` redirects, or a redirect loop.
    case tooManyRedirects(url: String)
    /// The body is larger than the limit.
    case tooLarge(url: String, limit: Int64)
    /// No answer within the timeout.
    case timedOut(url: String, seconds: Int)
    /// A transfer that stopped receiving bytes for the idle timeout (a clip download).
    case stalled(url: String, seconds: Int)
    /// Connecting or reading failed (DNS, refused, TLS, reset).
    case failed(url: String, reason: String)
    /// Not an http(s) URL.
    case unsupported(url: String)
    /// The body ended before the length the server announced.
    case truncated(url: String, expected: Int64, received: Int64)
    /// The clip cache could not be written or read.
    case cache(path: String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .networkNotAllowed, .unsupported: .usage
        // An input's server is not feed's: its status says only whether the input is there
        // (not FailureKind's table of feed's own API).
        case let .status(_, code, _): code == 404 || code == 410 ? .missingInput : .io
        case .tooLarge: .invalidData
        case .tooManyRedirects, .timedOut, .stalled, .failed, .truncated, .cache: .io
        }
    }

    /// The message, naming the URL without its password (``URLCredentials``).
    public var description: String { URLCredentials.redacted(inText: message) }

    private var message: String {
        switch self {
        case let .networkNotAllowed(url): "\(url): a network URL, and reading from the network was not allowed"
        case let .status(url, code, reason): "\(url): HTTP \(code)\(reason.isEmpty ? "" : " \(reason)")"
        case let .tooManyRedirects(url): "\(url): more than \(HTTPFetch.maxRedirects) redirects"
        case let .tooLarge(url, limit): "\(url): larger than the \(limit >> 20) MiB limit"
        case let .timedOut(url, seconds): "\(url): no complete answer within \(seconds) s"
        case let .stalled(url, seconds): "\(url): no data for \(seconds) s, the download stalled"
        case let .failed(url, reason): "\(url): \(reason)"
        case let .unsupported(url): "\(url): only http:// and https:// URLs can be fetched"
        case let .truncated(url, expected, received): "\(url): the body ended after \(received) of \(expected) bytes"
        case let .cache(path, reason): "\(path): clip cache: \(reason)"
        }
    }
}
