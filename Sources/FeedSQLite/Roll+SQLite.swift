import FeedCore
import Foundation

extension Roll {
    /// Opens (creating if needed) the local roll at `paths`: its files, and `roll.sqlite` as
    /// its catalog (see ``SQLiteCatalog``); its recordings' bytes in `media` (nil: the folder).
    /// - Throws: ``RollError/corruptDatabase(path:reason:)`` or ``RollError/newerSchema(path:unknownMigrations:)``
    ///   for a database it must not write to (left untouched).
    public convenience init(paths: RollPaths = .fromEnvironment(), media: (any MediaStore)? = nil, prober: any RecordingProber,
                            access: Access = .readWrite) throws(RollError) {
        do { try FileManager.default.createDirectory(at: paths.home, withIntermediateDirectories: true) } catch {
            throw RollError.io(path: paths.home.path, reason: "cannot create folder: \(error.localizedDescription)")
        }
        let sqlite = try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock, access: access)
        try self.init(paths: paths, catalog: sqlite, media: media, prober: prober)
    }

    /// The marks in the feed `feed` of the roll at `paths` without creating anything: empty
    /// when there is no roll yet (for a ♥ column in `feed list`, which must not create a roll
    /// as a side effect).
    public static func existingMarks(paths: RollPaths = .fromEnvironment(), feed: String) async throws(RollError) -> [String: Set<VideoMark>] {
        guard FileManager.default.fileExists(atPath: paths.database.path) else { return [:] }
        return try await Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly).marks(feed: feed)
    }

    /// The stored comments of the roll at `paths`, without creating a roll (none when there is none).
    public static func existingComments(paths: RollPaths = .fromEnvironment()) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        guard FileManager.default.fileExists(atPath: paths.database.path) else { return [] }
        return try await Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly).catalog.storedComments()
    }
}
