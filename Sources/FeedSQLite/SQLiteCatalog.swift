import FeedCore
import Foundation
internal import GRDB

/// The roll's local catalog: one SQLite file (WAL, a 10 s busy timeout) through GRDB, holding
/// every row of the roll (see ``Catalog``). The only code in feed that sees GRDB.
///
/// Several processes may use one file at once: writers wait for each other instead of
/// failing. A file that is not a database, is damaged or was written by a newer feed is
/// refused without a byte of it being written.
public final class SQLiteCatalog: Catalog {
    /// The database file.
    public let path: String
    /// The time written into rows and that leases, backoffs and expiries are compared with.
    let clock: any WallClock
    /// Where reads go: the pool, or a read-only connection for a ``Access/readOnly`` catalog.
    let reader: any DatabaseReader
    /// The pool (nil for a ``Access/readOnly`` catalog).
    let writer: DatabasePool?

    /// How long a writer waits for another process's transaction before failing.
    public static let busyTimeout: TimeInterval = 10

    /// Whether a catalog will be written through: ``CatalogAccess/readOnly`` reads through one
    /// read-only connection (opening writes nothing) and falls back to read-write for a
    /// database not yet created or migrated.
    public typealias Access = CatalogAccess

    /// Opens (creating if needed) the database at `path` and migrates its schema; creation
    /// and migration run under the exclusive file lock `setupLock`, so two first-time
    /// processes don't race.
    /// - Throws: ``RollError/corruptDatabase(path:reason:)`` for a file that is not a SQLite
    ///   database or is damaged, ``RollError/newerSchema(path:unknownMigrations:)`` for one
    ///   written by a newer feed — in both cases without writing to it.
    public init(path: String, setupLock: URL, access: Access = .readWrite, clock: any WallClock = SystemWallClock()) throws(RollError) {
        self.path = path
        self.clock = clock
        let isNew = try Self.checkHeader(path)
        // Opening a pool writes (WAL set-up), so an existing file is vetted read-only first.
        if !isNew {
            let (queue, current) = try Self.vetReadOnly(path)
            if access == .readOnly && current {
                reader = queue
                writer = nil
                return
            }
            try? queue.close()
        }
        let setup = isNew ? try FileLock(setupLock, exclusive: true) : nil
        var config = Configuration()
        config.busyMode = .timeout(Self.busyTimeout)
        config.label = "roll"
        let pool: DatabasePool
        do { pool = try DatabasePool(path: path, configuration: config) } catch {
            throw Self.mapped(error, path: path)
        }
        reader = pool
        writer = pool
        try migrate(pool, setupLock: setupLock, holding: setup)
    }

    /// The schema is brought up to date when the catalog opens, so this only checks that
    /// no newer feed has migrated it since.
    public func migrate() async throws(RollError) {
        let migrator = SQLiteSchema.migrator
        let unknown = try await read { db in
            try migrator.hasBeenSuperseded(db) ? try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted() : []
        }
        if !unknown.isEmpty { throw RollError.newerSchema(path: path, unknownMigrations: unknown) }
    }

    /// Refuses a non-empty file that does not start with SQLite's magic header, before
    /// SQLite gets a chance to touch it. Returns whether the database is new (absent or empty).
    private static func checkHeader(_ path: String) throws(RollError) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            // Absent is new. (Asking again whether it exists would race with another process
            // creating it in between: that one's file is then taken as unreadable.)
            let code = errno
            if code == ENOENT { return true }
            throw RollError.database(path: path, reason: "cannot read: \(String(cString: strerror(code)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        if head.isEmpty { return true }
        if head != Data("SQLite format 3\0".utf8) {
            throw RollError.corruptDatabase(path: path, reason: "file is not a database")
        }
        return false
    }

    /// Refuses, through a read-only connection, a database that is damaged or whose schema
    /// is newer than this feed's, so such a file is never written to.
    /// Returns the read-only connection and whether the schema is fully migrated.
    private static func vetReadOnly(_ path: String) throws(RollError) -> (DatabaseQueue, current: Bool) {
        let migrator = SQLiteSchema.migrator
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(Self.busyTimeout)
        config.label = "roll (read-only)"
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            let (unknown, current) = try queue.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                let unknown = try migrator.hasBeenSuperseded(db)
                    ? try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted() : []
                return (unknown, try migrator.hasCompletedMigrations(db))
            }
            if !unknown.isEmpty {
                try? queue.close()
                throw RollError.newerSchema(path: path, unknownMigrations: unknown)
            }
            return (queue, current)
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    private func migrate(_ pool: DatabasePool, setupLock: URL, holding lock: FileLock?) throws(RollError) {
        let migrator = SQLiteSchema.migrator
        do {
            var lock = lock
            while true {
                let (superseded, complete, applied) = try pool.read { db in
                    (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db), try migrator.appliedIdentifiers(db))
                }
                if superseded {
                    let unknown = applied.subtracting(migrator.migrations).sorted()
                    throw RollError.newerSchema(path: path, unknownMigrations: unknown)
                }
                if complete { break }
                if lock == nil {
                    lock = try FileLock(setupLock, exclusive: true)
                    continue // look again: another process may have migrated meanwhile
                }
                try migrator.migrate(pool)
                break
            }
            lock?.release()
        } catch let error as RollError {
            throw error
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    /// A RollError for any error GRDB or SQLite raised.
    static func mapped(_ error: any Error, path: String) -> RollError {
        if let error = error as? RollError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .corruptDatabase(path: path, reason: error.message ?? "\(error.resultCode)")
            default:
                return .database(path: path, reason: error.message ?? "\(error.resultCode)")
            }
        }
        return .database(path: path, reason: "\(error)")
    }

    /// Runs a read, mapping errors to RollError.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RollError) -> T {
        do { return try await reader.read(body) } catch { throw Self.mapped(error, path: path) }
    }

    /// Runs a write transaction, mapping errors to RollError.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RollError) -> T {
        guard let writer else { throw RollError.database(path: path, reason: "opened read-only") }
        do { return try await writer.write(body) } catch { throw Self.mapped(error, path: path) }
    }
}
