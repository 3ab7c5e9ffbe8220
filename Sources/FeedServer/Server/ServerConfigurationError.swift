import FeedCore

/// Why a ``ServerConfiguration`` is refused (see ``ServerConfiguration/validate()``); a usage
/// failure (exit status 64 for `feed serve`).
public enum ServerConfigurationError: Error, Equatable, CustomStringConvertible, FeedFailure {
    /// Neither a key nor a token, on an address other machines reach.
    case openOffLoopback(host: String)
    /// `*` with other origins.
    case anyOriginNotAlone
    /// `*` on a server with a key or a token.
    case anyOriginWithKey
    /// Not `scheme://host[:port]`.
    case badOrigin(String)
    /// A setting outside its range, in words.
    case outOfRange(String)

    public var description: String {
        switch self {
        case .openOffLoopback(let host):
            "--bind \(host) is reachable from other machines: give --jwt-secret-file, --jwks-file or --token too"
        case .anyOriginNotAlone: "--cors *: any origin already; give it alone"
        case .anyOriginWithKey: "--cors * cannot go with a key or --token: name the origins that may call"
        case .badOrigin(let origin): "--cors \(origin): an origin is scheme://host[:port], like https://app.example.com"
        case .outOfRange(let words): words
        }
    }

    public var kind: FailureKind { .usage }
}
