import Foundation

/// The camera roll: recordings stored as files under `recordings/` and catalogued as rows in
/// a ``Catalog``.
///
/// The roll owns the crash ordering: every operation that moves files orders its file steps
/// (`.incoming/` → durable rename → catalog row; `.trash/` → row deleted → unlink) so that a
/// crash at any point leaves a state ``verify()`` names and ``fix()`` repairs. The catalog
/// only has to make each call atomic. Several processes may use one roll at once.
///
/// The catalog is given once, here; the job queue, the upload store, the server and the
/// worker read it from the roll (`roll.catalog`) rather than being handed its parts.
public final class Roll: Sendable {
    /// Where the roll's files live.
    public let paths: RollPaths
    /// Reads media facts from files (MediaProbe in production).
    public let prober: any RecordingProber
    /// The rows: recordings, marks, jobs, comments, uploads and webhook endpoints.
    public let catalog: any Catalog
    /// The recordings' bytes (a ``FolderMediaStore`` over `paths` unless given).
    public let media: any MediaStore
    /// `paths.recordings.path`, computed once.
    let recordingsPath: String

    /// How a roll's catalog is opened.
    public typealias Access = CatalogAccess

    /// A roll over `catalog`, its recordings' bytes in `media` (nil: the folder `paths`), its
    /// other files under `paths` (folders created as needed).
    public init(paths: RollPaths, catalog: any Catalog, media: (any MediaStore)? = nil, prober: any RecordingProber) throws(RollError) {
        self.paths = paths
        self.prober = prober
        self.catalog = catalog
        self.media = media ?? FolderMediaStore(paths: paths)
        recordingsPath = paths.recordings.path
        let fm = FileManager.default
        for dir in [paths.home, paths.recordings, paths.incoming, paths.trash, paths.thumbs, paths.jobs] {
            do { try fm.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw RollError.io(path: dir.path, reason: "cannot create folder: \(error.localizedDescription)")
            }
        }
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

    /// A local file with `recording`'s bytes, as the media store gives it (the stored file itself
    /// in a folder), for FFmpeg and the server.
    public func url(of recording: Recording) -> URL { media.localFile(for: .recording(recording.fileName)) }

    /// ``url(of:)``'s path; string-built for a folder (no URL per row, for listings).
    public func path(of recording: Recording) -> String {
        guard media is FolderMediaStore else { return url(of: recording).path }
        return recordingsPath + "/" + RollPaths.storedName(recording.fileName)
    }

    /// Where `recording`'s bytes are, as listings show it: ``path(of:)`` in a folder, the media
    /// store's address (an object's `s3://` URL) elsewhere; nothing is fetched.
    public func address(of recording: Recording) -> String {
        guard media is FolderMediaStore else { return media.address(of: .recording(recording.fileName)) }
        return recordingsPath + "/" + RollPaths.storedName(recording.fileName)
    }
}
