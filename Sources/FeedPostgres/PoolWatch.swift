import FeedCore
import Foundation
import Logging

/// What one connection pool says of its connections: how many are open, and whether its last
/// attempt to open one failed. PostgresNIO tells a pool's events only to the background logger
/// it is given (`Connection established`, `Connection closed`, `Connection creation failed`),
/// so this is that logger's handler, and keeps nothing else of what it is told.
///
/// A pool whose attempts fail waits longer after each (100 ms × 1.25ⁿ, up to a minute, not
/// configurable), so after an outage it may wait a minute more before it sees the database is
/// back. ``isStuck`` (failing, nothing open) is when the catalog checks for itself and, once a
/// connection of its own works, puts a new pool in its place (``PostgresCatalog``'s `runPools`).
final class PoolWatch: Sendable {
    private struct State {
        var open: Set<String> = []
        var failing = false
    }
    private let state = Locked(State())
    /// Woken at each change.
    private let changes = Wakeups()

    /// The background logger to give the pool: its events come here, nothing is printed.
    var logger: Logger {
        var logger = Logger(label: "feed.postgres.pool") { _ in Handler(watch: self) }
        logger.logLevel = .debug
        return logger
    }

    /// Whether the pool's last attempt to connect failed while it has no connection open: every
    /// call waits for its next attempt.
    var isStuck: Bool { state.withLock { $0.failing && $0.open.isEmpty } }

    /// Returns once the pool is stuck (at once when it is), or when the calling task is cancelled.
    func stuck() async {
        // A change while nobody waited makes the next wait return at once: none is missed.
        while !Task.isCancelled, !isStuck { await changes.wait(timeout: 60) }
    }

    /// What the pool said (its other messages, a lease or a release per query, are let go unlocked).
    func record(_ message: String, connection: String) {
        switch message {
        case "Connection established": state.withLock { $0.open.insert(connection); $0.failing = false }
        case "Connection closed": state.withLock { _ = $0.open.remove(connection) }
        case "Connection creation failed": state.withLock { $0.failing = true }
        default: return
        }
        changes.wakeAll()
    }

    /// Hands the pool's events to the watch.
    private struct Handler: LogHandler {
        let watch: PoolWatch
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let connection = event.metadata?["psql_connection_id"] ?? metadata["psql_connection_id"]
            guard let connection else { return }
            watch.record(event.message.description, connection: "\(connection)")
        }
    }
}
