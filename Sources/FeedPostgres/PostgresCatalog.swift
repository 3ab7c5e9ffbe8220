import FeedCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The catalog, mark store, comment store and job queue in PostgreSQL, for several `feed serve`
/// and `feed worker` processes on several machines sharing one database and one media folder.
/// The only code in feed that sees PostgresNIO.
///
/// One pooled `PostgresClient` runs for the catalog's lifetime, with the `LISTEN` loop, as
/// children of one task. Commands use ``withOpen(_:maximumConnections:clock:_:)``: the client is
/// a child task of the caller's for exactly the body's duration (structured: no task outlives
/// it, nothing to remember to close). `feed serve` and `feed worker` run their service group
/// inside that body, so the catalog closes once the group has returned: after the server and the
/// runners stopped, even when the group's deadline cancelled them. ``open(_:maximumConnections:clock:)``
/// (tests, benchmarks) starts the same children in a task of their own that ``close()`` ends.
/// Every call is one statement or one transaction. Times come from the database's clock, so
/// hosts whose clocks disagree still agree on leases. Workers wake on `LISTEN feed_jobs`, and
/// poll as well in case a notification is missed (a dropped connection).
public final class PostgresCatalog: Catalog {
    /// Where the database is.
    public let location: PostgresLocation
    /// How every pool of the catalog connects.
    let configuration: PostgresClient.Configuration
    /// The connection pool calls use now: a new one replaces it when it is stuck after an outage
    /// (see `runPools()`).
    let pool: Locked<PostgresPool>
    /// How long the catalog waits between two connections of its own while its pool is stuck.
    static let poolRecheck: Duration = .seconds(1)
    let logger: Logger
    /// Who runs the client: nobody yet, a task of its own (``start()``), or the caller's scope
    /// (``withOpen(_:maximumConnections:clock:_:)``).
    private enum Runner { case idle, task(Task<Void, Never>), scope }
    private let running = Locked(Runner.idle)
    let wakeups = Wakeups()
    /// Completions without a recording, grouped into one statement each round.
    let completions = CompletionBatch()
    private let listening = Locked(false)
    private let closed = Locked(false)
    /// Asks the running task to start its `LISTEN` loop (once, on the first wait for jobs).
    private let listenRequests: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
        = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// A test clock that stands in for the database's (nil: the database's `clock_timestamp()`).
    let clock: (any WallClock)?

    /// A catalog over `location`; nothing connects until ``run()`` (or ``open(_:maximumConnections:clock:)``).
    /// `clock` replaces the database's clock in every statement: for tests of leases and expiry.
    public init(_ location: PostgresLocation, maximumConnections: Int = 8, clock: (any WallClock)? = nil) throws(RollError) {
        self.location = location
        self.clock = clock
        var logger = Logger(label: "feed.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        self.logger = logger
        var configuration: PostgresClient.Configuration
        if let socket = location.socketPath {
            configuration = .init(unixSocketPath: socket, username: location.username, password: location.password, database: location.database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch (location.tls, try location.tlsConfiguration()) {
            case (.prefer, let settings?): .prefer(settings)
            case (_, let settings?): .require(settings)
            case (_, nil): .disable
            }
            configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.username,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.maximumConnections = max(2, maximumConnections)
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", "feed")]
        self.configuration = configuration
        pool = Locked(PostgresPool(configuration))
    }

    /// The client of the pool in use.
    var client: PostgresClient { pool.withLock { $0.client } }

    /// Opens the catalog at `url`: starts the client, checks the connection and brings the
    /// schema up to date (under an advisory lock, so several processes starting at once migrate once).
    /// - Throws: ``RollError/database(path:reason:)`` naming the URL (without its password) when
    ///   the server cannot be reached or refuses; ``RollError/newerSchema(path:unknownMigrations:)``.
    public static func open(_ url: String, maximumConnections: Int = 8, clock: (any WallClock)? = nil) async throws(RollError) -> PostgresCatalog {
        let catalog = try PostgresCatalog(try PostgresLocation(url), maximumConnections: maximumConnections, clock: clock)
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
                switch (location.tls, try location.tlsConfiguration()) {
                case (.prefer, let settings?): tls = .prefer(try NIOSSLContext(configuration: settings))
                case (_, let settings?): tls = .require(try NIOSSLContext(configuration: settings))
                case (_, nil): tls = .disable
                }
            } catch let error as RollError {
                throw error
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

    /// Opens the catalog at `url` for the duration of `body`: connects, brings the schema up to
    /// date, runs `body`, then ends the client and its `LISTEN` loop before returning or throwing.
    /// The client runs as a child task of the caller's.
    /// - Throws: as ``open(_:maximumConnections:clock:)``, or what `body` throws.
    public static func withOpen<T>(_ url: String, maximumConnections: Int = 8, clock: (any WallClock)? = nil,
                                             _ body: (PostgresCatalog) async throws -> T) async throws -> T {
        let catalog = try PostgresCatalog(try PostgresLocation(url), maximumConnections: maximumConnections, clock: clock)
        try await catalog.probe()
        guard catalog.running.withLock({ runner in
            guard case .idle = runner else { return false }
            runner = .scope
            return true
        }) else { throw RollError.database(path: catalog.location.description, reason: "already running") }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await catalog.runClient() }
            defer {
                catalog.finish()
                group.cancelAll()
            }
            try await catalog.migrate()
            return try await body(catalog)
        }
    }

    /// Runs the client, and the `LISTEN` loop once asked for, as children of one task (see ``close()``);
    /// nothing when it already runs (in a ``withOpen(_:maximumConnections:clock:_:)`` scope too).
    public func start() {
        running.withLock { runner in
            guard case .idle = runner, !closed.withLock({ $0 }) else { return }
            runner = .task(Task { [weak self] in await self?.runClient() })
        }
    }

    /// The pool (and those that replace it) and, once asked for, the `LISTEN` loop, until the
    /// calling task is cancelled.
    private func runClient() async {
        await withDiscardingTaskGroup { [requests = listenRequests.stream] group in
            group.addTask { [weak self] in await self?.runPools() }
            group.addTask { [weak self] in
                var iterator = requests.makeAsyncIterator()
                guard await iterator.next() != nil else { return }
                await self?.listen()
            }
        }
    }

    /// Marks the catalog closed and lets the `LISTEN` loop's wait end.
    private func finish() {
        closed.withLock { $0 = true }
        listenRequests.continuation.finish()
    }

    /// Stops the client and the `LISTEN` loop and waits for both (their connections closed); in a
    /// ``withOpen(_:maximumConnections:clock:_:)`` scope, only marks it closed: the scope ends them.
    public func close() async {
        finish()
        let task = running.withLock { runner -> Task<Void, Never>? in
            guard case let .task(task) = runner else { return nil }
            runner = .idle
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closed.withLock { $0 } }

    /// Creates or upgrades the schema; refuses a database migrated by a newer feed.
    public func migrate() async throws(RollError) {
        try await PostgresSchema.migrate(self)
    }

    // MARK: Queries

    /// Runs `query` and returns its rows.
    func rows(_ query: PostgresQuery) async throws(RollError) -> [PostgresRow] {
        do {
            return try await withDeadline {
                try await self.withClient { client in
                    var rows: [PostgresRow] = []
                    for try await row in try await client.query(query, logger: self.logger) { rows.append(row) }
                    return rows
                }
            }
        } catch { throw mapped(error) }
    }

    /// Runs `query`, ignoring rows.
    func execute(_ query: PostgresQuery) async throws(RollError) {
        _ = try await rows(query)
    }

    /// Whether a connection of the pool is encrypted (TLS), as the server sees it.
    package func connectionIsEncrypted() async throws(RollError) -> Bool {
        let found = try await rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        return try await decoded { try found.first?.decode(Bool.self) ?? false }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws(RollError) -> T {
        do {
            return try await withDeadline {
                try await self.withClient { client in
                    try await client.withConnection { connection in
                        try await connection.withTransaction(logger: self.logger) { connection in try await body(connection, self.logger) }
                    }
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

    // MARK: Notifications

    /// Starts the `LISTEN feed_jobs` loop of the running task, once.
    func listenOnce() {
        let first = listening.withLock { started in defer { started = true }; return !started }
        if first { listenRequests.continuation.yield(()) }
    }

    /// `LISTEN feed_jobs` on a connection of its own until cancelled (by ``close()``);
    /// reconnects after a second when the connection drops.
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    let notifications = try await connection.listen(PostgresSchema.jobChannel)
                    for try await _ in notifications { self.wakeups.wakeAll() }
                }
            } catch {}
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
