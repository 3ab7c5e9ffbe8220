import Foundation
import GRDB

/// The camera roll: a SQLite catalog (`roll.sqlite`, WAL, 10 s busy timeout) of recordings
/// stored under `recordings/`, plus likes and bookmarks of feed videos.
///
/// Several processes may use one roll at once: writers wait for each other instead of
/// failing. Every operation that moves files orders its steps so that a crash at any point
/// leaves a state ``verify()`` names and ``fix(_:)`` repairs.
public final class Roll: Sendable {
    /// Where the roll lives.
    public let paths: RollPaths
    /// Reads media facts from files (MediaProbe in production).
    public let prober: any RecordingProber
    /// `paths.recordings.path`, computed once.
    let recordingsPath: String
    /// Where reads go: the pool, or a read-only connection for a ``Access/readOnly`` roll.
    let reader: any DatabaseReader
    /// The pool (nil for a ``Access/readOnly`` roll).
    let writer: DatabasePool?

    /// How long a writer waits for another process's transaction before failing.
    public static let busyTimeout: TimeInterval = 10

    /// Whether a roll will be written through.
    public enum Access: Sendable {
        /// Reads and writes (a WAL pool).
        case readWrite
        /// Reads only, through one read-only connection: opening writes nothing, which
        /// keeps listing cheap. Falls back to read-write for a roll not yet created or migrated.
        case readOnly
    }

    /// Opens (creating if needed) the roll at `paths`, migrating its schema.
    /// - Throws: ``RollError/corruptDatabase(path:reason:)`` for a file that is not a
    ///   SQLite database or is damaged, ``RollError/newerSchema(path:unknownMigrations:)``
    ///   for one written by a newer feed — in both cases without writing to it.
    public init(paths: RollPaths = .fromEnvironment(), prober: any RecordingProber, access: Access = .readWrite) throws(RollError) {
        self.paths = paths
        self.prober = prober
        recordingsPath = paths.recordings.path
        let fm = FileManager.default
        for dir in [paths.home, paths.recordings, paths.incoming, paths.trash, paths.thumbs] {
            do { try fm.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw RollError.io(path: dir.path, reason: "cannot create folder: \(error.localizedDescription)")
            }
        }
        let dbPath = paths.database.path
        let isNew = try Roll.checkHeader(dbPath)
        // Opening a pool writes (WAL set-up), so an existing file is vetted read-only first.
        if !isNew {
            let (queue, current) = try Roll.vetReadOnly(dbPath)
            if access == .readOnly && current {
                reader = queue
                writer = nil
                return
            }
            try? queue.close()
        }
        // Creation and migration run under a lock so two first-time processes don't race.
        let setup = isNew ? try FileLock(paths.setupLock, exclusive: true) : nil
        var config = Configuration()
        config.busyMode = .timeout(Roll.busyTimeout)
        config.label = "roll"
        let pool: DatabasePool
        do { pool = try DatabasePool(path: dbPath, configuration: config) } catch {
            throw Roll.mapped(error, path: dbPath)
        }
        reader = pool
        writer = pool
        try migrate(pool, holding: setup)
    }

    /// Refuses a non-empty file that does not start with SQLite's magic header, before
    /// SQLite gets a chance to touch it. Returns whether the database is new (absent or empty).
    private static func checkHeader(_ path: String) throws(RollError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw RollError.database(path: path, reason: "cannot read") }
            return true
        }
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
        let migrator = RollSchema.migrator
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(Roll.busyTimeout)
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
            throw Roll.mapped(error, path: path)
        }
    }

    private func migrate(_ pool: DatabasePool, holding setupLock: FileLock?) throws(RollError) {
        let migrator = RollSchema.migrator
        let path = paths.database.path
        do {
            var lock = setupLock
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
                    lock = try FileLock(paths.setupLock, exclusive: true)
                    continue // look again: another process may have migrated meanwhile
                }
                try migrator.migrate(pool)
                break
            }
            lock?.release()
        } catch let error as RollError {
            throw error
        } catch {
            throw Roll.mapped(error, path: path)
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
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(RollError) -> T {
        do { return try reader.read(body) } catch { throw Roll.mapped(error, path: paths.database.path) }
    }

    /// Runs a write transaction, mapping errors to RollError.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(RollError) -> T {
        guard let writer else { throw RollError.database(path: paths.database.path, reason: "opened read-only") }
        do { return try writer.write(body) } catch { throw Roll.mapped(error, path: paths.database.path) }
    }

    /// Recordings newest first. `limit` nil lists all.
    public func recordings(limit: Int? = 50, offset: Int = 0) throws(RollError) -> [Recording] {
        try read { db in
            try Recording.order(Recording.CodingKeys.createdAt.desc, Recording.CodingKeys.id.desc)
                .limit(limit ?? -1, offset: max(0, offset))
                .fetchAll(db)
        }
    }

    /// How many recordings the roll holds.
    public func count() throws(RollError) -> Int {
        try read { db in try Recording.fetchCount(db) }
    }

    /// The recording with this id.
    /// - Throws: ``RollError/unknownID(_:)`` naming it.
    public func recording(id: Int64) throws(RollError) -> Recording {
        guard let found = try read({ db in try Recording.fetchOne(db, key: id) }) else {
            throw RollError.unknownID(String(id))
        }
        return found
    }

    /// The recording whose id is the text `id` (as typed on a command line).
    /// - Throws: ``RollError/unknownID(_:)`` naming it, for text that is not an id too.
    public func recording(id text: String) throws(RollError) -> Recording {
        guard let id = Int64(text), id > 0 else { throw RollError.unknownID(text) }
        do { return try recording(id: id) } catch { throw RollError.unknownID(text) }
    }

    /// The stored file of `recording`.
    public func url(of recording: Recording) -> URL { paths.file(named: recording.fileName) }

    /// The stored file's absolute path (string-built: no file-system lookups, for listings).
    public func path(of recording: Recording) -> String { recordingsPath + "/" + RollPaths.storedName(recording.fileName) }
}
