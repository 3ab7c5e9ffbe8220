import FeedCore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The catalog, mark store, comment store and job queue in PostgreSQL, for several `feed serve`
/// and `feed worker` processes on several machines sharing one database and one media folder.
/// The only code in feed that sees PostgresNIO.
///
/// One pooled `PostgresClient` runs for the catalog's lifetime: ``open(_:maximumConnections:)``
/// starts it, ``close()`` stops it (`feed` closes every catalog it opened before it exits). Every call is one
/// statement or one transaction. Times come from the database's clock, so hosts whose clocks
/// disagree still agree on leases. Workers wake on `LISTEN feed_jobs`, and poll as well in case
/// a notification is missed (a dropped connection).
public final class PostgresCatalog: RecordingCatalog, MarkStore, CommentStore, JobStore {
    /// Where the database is.
    public let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    private let running: Locked<Task<Void, Never>?> = Locked(nil)
    let wakeups = Wakeups()
    /// Completions without a recording, grouped into one statement each round.
    let completions = CompletionBatch()
    private let listening = Locked(false)
    private let closed = Locked(false)

    /// A catalog over `location`; nothing connects until ``run()`` (or ``open(_:maximumConnections:)``).
    public init(_ location: PostgresLocation, maximumConnections: Int = 8) {
        self.location = location
        var logger = Logger(label: "feed.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        self.logger = logger
        var configuration: PostgresClient.Configuration
        if let socket = location.socketPath {
            configuration = .init(unixSocketPath: socket, username: location.username, password: location.password, database: location.database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch location.tls {
            case .disable: .disable
            case .prefer: .prefer(TLSConfiguration.makeClientConfiguration())
            case .require: .require(TLSConfiguration.makeClientConfiguration())
            }
            configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.username,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.maximumConnections = max(2, maximumConnections)
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", "feed")]
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Opens the catalog at `url`: starts the client, checks the connection and brings the
    /// schema up to date (under an advisory lock, so several processes starting at once migrate once).
    /// - Throws: ``RollError/database(path:reason:)`` naming the URL (without its password) when
    ///   the server cannot be reached or refuses; ``RollError/newerSchema(path:unknownMigrations:)``.
    public static func open(_ url: String, maximumConnections: Int = 8) async throws(RollError) -> PostgresCatalog {
        let catalog = PostgresCatalog(try PostgresLocation(url), maximumConnections: maximumConnections)
        // One direct connection first: a server that is not there fails now with its reason,
        // instead of the pool retrying until a query's deadline.
        try await catalog.probe()
        catalog.start()
        do {
            try await catalog.migrate()
        } catch {
            await catalog.close()
            throw error
        }
        return catalog
    }

    /// Connects once, outside the pool, and closes again.
    func probe() async throws(RollError) {
        var configuration: PostgresConnection.Configuration
        if let socket = location.socketPath {
            configuration = .init(unixSocketPath: socket, username: location.username, password: location.password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch location.tls {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch { throw RollError.database(path: location.description, reason: "TLS: \(error)") }
            configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.username,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
        } catch { throw mapped(error) }
    }

    /// Runs the client in a task of its own (see ``close()``).
    public func start() {
        running.withLock { task in
            guard task == nil else { return }
            task = Task { [client] in await client.run() }
        }
    }

    /// Stops the client and waits for its connections to close.
    public func close() async {
        closed.withLock { $0 = true }
        let task = running.withLock { task in defer { task = nil }; return task }
        task?.cancel()
        await task?.value
    }

    /// Creates or upgrades the schema; refuses a database migrated by a newer feed.
    public func migrate() async throws(RollError) {
        try await PostgresSchema.migrate(self)
    }

    // MARK: Queries

    /// Runs `query` and returns its rows.
    func rows(_ query: PostgresQuery) async throws(RollError) -> [PostgresRow] {
        do {
            return try await withDeadline {
                var rows: [PostgresRow] = []
                for try await row in try await self.client.query(query, logger: self.logger) { rows.append(row) }
                return rows
            }
        } catch { throw mapped(error) }
    }

    /// Runs `query`, ignoring rows.
    func execute(_ query: PostgresQuery) async throws(RollError) {
        _ = try await rows(query)
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws(RollError) -> T {
        do {
            return try await withDeadline {
                try await self.client.withConnection { connection in
                    try await connection.withTransaction(logger: self.logger) { connection in try await body(connection, self.logger) }
                }
            }
        } catch { throw mapped(error) }
    }

    /// Gives up on a call after 30 s (a server that accepted the connection and then hangs,
    /// or a pool that cannot connect at all).
    private func withDeadline<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask { try await Task.sleep(for: .seconds(30)); return nil }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw RollError.database(path: location.description, reason: "no answer within 30 s")
            }
            return value
        }
    }

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
                return .database(path: location.description, reason: "cannot connect: \(underlying)")
            }
            return .database(path: location.description, reason: "\(error.code)")
        }
        if error is CancellationError { return .database(path: location.description, reason: "cancelled") }
        return .database(path: location.description, reason: "\(error)")
    }

    // MARK: Notifications

    /// `LISTEN feed_jobs` on a connection of its own, for as long as the client runs;
    /// reconnects after a second when the connection drops.
    func listenOnce() {
        let first = listening.withLock { started in defer { started = true }; return !started }
        guard first else { return }
        Task { [weak self] in
            while let self, !Task.isCancelled, !self.closed.withLock({ $0 }) {
                do {
                    try await self.client.withConnection { connection in
                        let notifications = try await connection.listen(PostgresSchema.jobChannel)
                        for try await _ in notifications { self.wakeups.wakeAll() }
                    }
                } catch {}
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

/// Tasks waiting for a notification or their timeout, whichever comes first.
final class Wakeups: Sendable {
    private let waiting = Locked<(waiters: [UUID: CheckedContinuation<Void, Never>], missed: Bool)>(([:], false))

    /// Waits up to `timeout` seconds, or until ``wakeAll()``; at once when a wake-up came while
    /// no one waited.
    func wait(timeout: Double) async {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let missed = waiting.withLock { state -> Bool in
                if state.missed {
                    state.missed = false
                    return true
                }
                state.waiters[id] = continuation
                return false
            }
            if missed {
                continuation.resume()
                return
            }
            Task {
                try? await Task.sleep(for: .seconds(max(0, timeout)))
                self.resume(id)
            }
        }
    }

    /// Resumes every waiter.
    func wakeAll() {
        let all = waiting.withLock { state in
            defer { state.waiters = [:] }
            if state.waiters.isEmpty { state.missed = true }
            return state.waiters
        }
        for continuation in all.values { continuation.resume() }
    }

    private func resume(_ id: UUID) {
        waiting.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
