import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// A network failure in words: what happened, without the library's type names, with what to
/// check. `connection refused (nothing listens at that address and port: is the server running?)`
/// rather than `connection reset (error set): Connection refused (errno: 111)`.
enum NetworkFailure {
    /// The reason part of ``RemoteError/failed(url:reason:)`` for `error`.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as IOError:
            return reason(errno: error.errnoCode)
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return reason(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "cannot resolve host \(error.host) (check the name and this machine's DNS)"
            }
            return "cannot connect to \(error.host):\(error.port)"
        case let error as HTTPClientError:
            switch error {
            case .remoteConnectionClosed: return "the server closed the connection before answering"
            case .tlsHandshakeTimeout: return "the TLS handshake timed out"
            case .invalidURL, .emptyHost, .emptyScheme: return "not a URL feed can fetch"
            default: return "\(error)"
            }
        default:
            let text = "\(error)"
            if text.contains("NXDOMAIN") || text.contains("nodename nor servname") { return "cannot resolve the host (check the name and this machine's DNS)" }
            return text
        }
    }

    /// A socket error by its errno.
    static func reason(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused (nothing listens at that address and port: is the server running?)"
        case ECONNRESET: "the server reset the connection"
        case ETIMEDOUT: "the connection timed out (a firewall, or the host is down)"
        case EHOSTUNREACH, ENETUNREACH: "no route to the host (check the network)"
        case EPIPE: "the server closed the connection"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
