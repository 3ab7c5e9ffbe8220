import Foundation

/// The camera roll: recordings stored as files under `recordings/` and catalogued in a
/// ``RecordingCatalog``, plus likes and bookmarks of feed videos in a ``MarkStore``.
///
/// The roll owns the crash ordering: every operation that moves files orders its file steps
/// (`.incoming/` → durable rename → catalog row; `.trash/` → row deleted → unlink) so that a
/// crash at any point leaves a state ``verify()`` names and ``fix()`` repairs. The catalog
/// only has to make each call atomic. Several processes may use one roll at once.
public final class Roll: Sendable {
    /// Where the roll's files live.
    public let paths: RollPaths
    /// Reads media facts from files (MediaProbe in production).
    public let prober: any RecordingProber
    /// The rows of the recordings.
    public let catalog: any RecordingCatalog
    /// Likes and bookmarks.
    public let markStore: any MarkStore
    /// Background jobs (stacks queued by a server).
    public let jobStore: any JobStore
    /// Comments posted over HTTP.
    public let commentStore: any CommentStore
    /// The records of resumable uploads (their bytes are files under `recordings/.uploads/`).
    public let uploadRecords: any UploadRecordStore
    /// Webhook endpoints (nil: a catalog without them; no event is sent).
    public let webhookStore: (any WebhookStore)?
    /// `paths.recordings.path`, computed once.
    let recordingsPath: String

    /// How the local roll's SQLite catalog is opened.
    public typealias Access = SQLiteCatalog.Access

    /// A roll over `catalog` and `marks`, its files under `paths` (folders created as needed).
    public init(paths: RollPaths, catalog: any RecordingCatalog, marks: any MarkStore, jobs: any JobStore,
                comments: any CommentStore, uploads: any UploadRecordStore, prober: any RecordingProber,
                webhooks: (any WebhookStore)? = nil) throws(RollError) {
        self.paths = paths
        self.prober = prober
        self.catalog = catalog
        markStore = marks
        jobStore = jobs
        commentStore = comments
        uploadRecords = uploads
        webhookStore = webhooks
        recordingsPath = paths.recordings.path
        let fm = FileManager.default
        for dir in [paths.home, paths.recordings, paths.incoming, paths.trash, paths.thumbs, paths.jobs] {
            do { try fm.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw RollError.io(path: dir.path, reason: "cannot create folder: \(error.localizedDescription)")
            }
        }
    }

    /// Opens (creating if needed) the local roll at `paths`: its files, and `roll.sqlite`
    /// as the catalog and mark store (see ``SQLiteCatalog``).
    /// - Throws: ``RollError/corruptDatabase(path:reason:)`` or ``RollError/newerSchema(path:unknownMigrations:)``
    ///   for a database it must not write to (left untouched).
    public convenience init(paths: RollPaths = .fromEnvironment(), prober: any RecordingProber, access: Access = .readWrite) throws(RollError) {
        do { try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true) } catch {
            throw RollError.io(path: paths.home.path, reason: "cannot create folder: \(error.localizedDescription)")
        }
        let sqlite = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock, access: access)
        try self.init(paths: paths, catalog: sqlite, marks: sqlite, jobs: sqlite, comments: sqlite, uploads: sqlite, prober: prober,
                      webhooks: sqlite)
    }

    /// Recordings newest first. `limit` nil lists all.
    public func recordings(limit: Int? = 50, offset: Int = 0) async throws(RollError) -> [Recording] {
        try await catalog.recordings(offset: offset, limit: limit)
    }

    /// One page of recordings newest first, after `cursor` (see ``RecordingCursor``); only
    /// `owner`'s when given.
    public func recordings(after cursor: RecordingCursor?, limit: Int, ownedBy owner: String? = nil) async throws(RollError) -> [Recording] {
        try await catalog.recordings(after: cursor, limit: limit, ownedBy: owner)
    }

    /// How many recordings the roll holds.
    public func count() async throws(RollError) -> Int {
        try await catalog.count()
    }

    /// The recording with this id.
    /// - Throws: ``RollError/unknownID(_:)`` naming it.
    public func recording(id: Int64) async throws(RollError) -> Recording {
        guard let found = try await catalog.recording(id: id) else { throw RollError.unknownID(String(id)) }
        return found
    }

    /// The recording whose id is the text `id` (as typed on a command line or in a URL).
    /// - Throws: ``RollError/unknownID(_:)`` naming it, for text that is not an id too.
    public func recording(id text: String) async throws(RollError) -> Recording {
        guard let id = Int64(text), id > 0, let found = try await catalog.recording(id: id) else {
            throw RollError.unknownID(text)
        }
        return found
    }

    /// The stored file of `recording`.
    public func url(of recording: Recording) -> URL { paths.file(named: recording.fileName) }

    /// The stored file's absolute path (string-built: no file-system lookups, for listings).
    public func path(of recording: Recording) -> String { recordingsPath + "/" + RollPaths.storedName(recording.fileName) }
}
