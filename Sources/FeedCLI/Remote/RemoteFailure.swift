import FeedClient
import FeedCore

/// A ``FeedClientError`` as the CLI reports it: one line naming the server, and the server's
/// failure kind (so a 404 from the server exits as a local "not found" would).
struct RemoteFailure: FeedFailure {
    let server: String
    let error: FeedClientError

    var kind: FailureKind { FailureKind(rawValue: error.kind) ?? .io }
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
