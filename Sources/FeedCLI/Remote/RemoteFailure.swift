import FeedClient
import FeedCore

/// A ``FeedClientError`` as the CLI reports it: one line naming the server, and the server's
/// failure kind (so a 404 from the server exits as a local "not found" would).
struct RemoteFailure: FeedFailure {
    let server: String
    let error: FeedClientError

    var kind: FailureKind { error.failureKind }
    var description: String { "\(server): \(error)" }

    /// Runs `call` against `server`, reporting a client error as a ``RemoteFailure``.
    static func run<T>(_ server: String, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as FeedFailure {
            throw error
        } catch {
            throw RemoteFailure(server: server, error: FeedClientError(error))
        }
    }
}

extension FeedClientError {
    /// The kind the CLI reports this as: the server's own (its problem's `kind`), else its status
    /// read through the one table (``FailureKind/init(httpStatus:)``: a proxy's 401 is
    /// `unauthorized`, its 502 `io`); for failures before an answer, FeedClient's kind.
    var failureKind: FailureKind {
        if case let .server(status, problem) = self {
            return problem.kind.flatMap(FailureKind.init(rawValue:)) ?? FailureKind(httpStatus: status)
        }
        return FailureKind(rawValue: kind) ?? .io
    }
}
