import FeedCore
import Foundation

/// Where a PostgreSQL catalog lives, read from a libpq-style URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=FILE]`, or
/// over a Unix socket with `postgres://USER@/DATABASE?host=/run/postgresql` (the folder that
/// holds `.s.PGSQL.PORT`). `postgresql://` works too; the user defaults to `$USER`, the port
/// to 5432, the database to the user's name, as with psql.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How TLS is used on a TCP connection, as libpq's `sslmode` says: `prefer` (the default)
    /// and `require` encrypt without checking the server's certificate (a stock Debian server's
    /// is self-signed); `verify-ca` checks it against `sslrootcert` (else the system's trusted
    /// roots), `verify-full` also that it names the host.
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String?
    public var port: Int
    /// The socket file, for a Unix-socket connection.
    public var socketPath: String?
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The certificates `verify-ca` and `verify-full` trust (`sslrootcert`, a PEM file); nil:
    /// the system's.
    public var rootCertificates: String?

    /// Whether `text` is meant as a PostgreSQL URL (and not a SQLite file path).
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a URL; the error names what is wrong with it (never the password).
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RollError) {
        guard Self.isURL(text), let parts = URLComponents(string: text) else {
            throw RollError.invalidArgument("\(Self.redacted(text)): not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        let user = parts.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        username = user
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        password = parts.password.flatMap { $0.removingPercentEncoding } ?? query["password"] ?? environment["PGPASSWORD"]
        let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        port = parts.port ?? Int(query["port"] ?? "") ?? 5432
        guard (1...65535).contains(port) else { throw RollError.invalidArgument("\(Self.redacted(text)): port \(port) is not 1…65535") }
        let mode = query["sslmode"] ?? "prefer"
        switch mode {
        case "disable", "allow": tls = .disable
        default:
            guard let known = TLSMode(rawValue: mode) else {
                throw RollError.invalidArgument("\(Self.redacted(text)): sslmode \(mode) is not disable, prefer, require, verify-ca or verify-full")
            }
            tls = known
        }
        rootCertificates = query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        let host = (parts.host.flatMap { $0.removingPercentEncoding }).flatMap { $0.isEmpty ? nil : $0 } ?? query["host"]
        if let host, host.hasPrefix("/") {
            socketPath = host + "/.s.PGSQL.\(port)"
            self.host = nil
        } else if let host {
            self.host = host
            socketPath = nil
        } else {
            socketPath = "/var/run/postgresql/.s.PGSQL.\(port)"
            self.host = nil
        }
    }

    /// The URL without its password, for messages and logs: pasted back, it reaches the same
    /// server (a socket's port included).
    public var description: String {
        let place = host.map { "\($0):\(port)" } ?? ""
        let socket = socketPath.map { "?host=" + ($0 as NSString).deletingLastPathComponent + (port == 5432 ? "" : "&port=\(port)") } ?? ""
        return "postgres://\(username)@\(place)/\(database)\(socket)"
    }

    /// `text` with any password replaced by `***` (``URLCredentials/redacted(url:)``).
    public static func redacted(_ text: String) -> String {
        URLCredentials.redacted(url: text)
    }
}
