import FeedCore
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// What the catalog says when PostgreSQL, the pool or the network fail: one line naming the
/// database (never its password) and the reason in words a person can act on.
extension PostgresCatalog {
    /// A RollError, naming the database, for anything PostgresNIO threw.
    func mapped(_ error: any Error) -> RollError {
        if let error = error as? RollError { return error }
        if let error = error as? PostgresTransactionError {
            return mapped(error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? CancellationError())
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return .database(path: location.description, reason: message)
            }
            if let underlying = error.underlying {
                return .database(path: location.description, reason: "cannot connect: \(connectReason(underlying))")
            }
            if error.code == .sslUnsupported {
                return .database(path: location.description,
                                  reason: "the server does not offer TLS, which sslmode=\(location.tls.rawValue) needs (sslmode=prefer uses it only when offered)")
            }
            return .database(path: location.description, reason: "\(error.code)")
        }
        if error is CancellationError { return .database(path: location.description, reason: "cancelled") }
        if let reason = Self.poolReason(error) { return .database(path: location.description, reason: reason) }
        return .database(path: location.description, reason: "\(error)")
    }

    /// The connection pool's own errors, in words.
    static func poolReason(_ error: any Error) -> String? {
        guard let text = poolErrorText(error) else { return nil }
        if text.contains("CircuitBreakerTripped") { return "cannot connect: new connections keep failing (is the server up?); retrying" }
        if text.contains("requestCancelled") { return "cancelled while waiting for a connection" }
        if text.contains("poolShutdown") { return "the catalog's connections are closed (shutting down)" }
        return "the connection pool failed"
    }

    /// The text of a connection pool's own error (its type lives in a module of PostgresNIO's
    /// that is not ours to import; its cases are told apart by name); nil for any other error.
    static func poolErrorText(_ error: any Error) -> String? {
        String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") ? "\(error)" : nil
    }

    /// Why a connection failed, in words that say where and what to check (the socket file for
    /// a Unix socket, host and port for TCP), not the network library's description.
    func connectReason(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return connectReason(first.error) }
        if case .handshakeFailed(let inner)? = error as? NIOSSLError {
            guard "\(inner)".contains("CERTIFICATE_VERIFY_FAILED") else { return "TLS handshake failed (\(location.tls.rawValue))" }
            let roots = location.rootCertificates.map { "the CA in sslrootcert=\($0)" } ?? "the system's trusted CAs"
            return "TLS: the server's certificate is not signed by \(roots) (sslmode=\(location.tls.rawValue)); "
                + "give its CA as sslrootcert=FILE, or encrypt without checking it with sslmode=require"
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "TLS: the server's certificate does not name \(location.host ?? "localhost") (sslmode=verify-full)"
        }
        let code = (error as? IOError)?.errnoCode
        if let socket = location.socketPath {
            switch code {
            case ENOENT: return "no server socket \(socket) (is PostgreSQL running, with that socket folder as host=?)"
            case ECONNREFUSED: return "\(socket) refused the connection (is PostgreSQL running?)"
            case EACCES: return "no permission to use \(socket)"
            default: break
            }
        } else {
            let address = "\(location.host ?? "localhost"):\(location.port)"
            switch code {
            case ECONNREFUSED: return "connection refused at \(address) (is PostgreSQL running and listening there?)"
            case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH: return "\(address) cannot be reached (check the host and the network)"
            default: break
            }
        }
        if let code { return String(cString: strerror(code)).lowercased() }
        return "\(error)"
    }
}
