/// What the roll needs of a database for its recordings: rows only, never files.
///
/// ``Roll`` orders file steps and catalog calls so that a crash anywhere leaves a state its
/// verifier can name; a catalog only has to make each call atomic. `SQLiteCatalog` (FeedSQLite) is the
/// local implementation; a server-side one (PostgreSQL) implements the same protocol and
/// runs the same test suite (`RecordingCatalogTests`).
///
/// Listings are newest first: `created_at` descending, then `id` descending.
public protocol RecordingCatalog: Sendable {
    /// Creates or upgrades the schema; does nothing when it is current.
    /// - Throws: ``RollError/newerSchema(path:unknownMigrations:)`` for a schema written by a newer feed.
    func migrate() async throws(RollError)

    /// Inserts `recording` (its `id` is ignored) and returns it as stored, with its new id.
    /// Ids are never reused. With `refusingDuplicates`, the look-up of an existing row with
    /// the same `sha256` and the same owner and the insert are one transaction (another user's
    /// copy of the same bytes is no duplicate: each owns their own).
    /// - Throws: ``RollError/duplicate(path:existingID:)`` naming `recording.originalPath`.
    func insert(_ recording: Recording, refusingDuplicates: Bool) async throws(RollError) -> Recording

    /// Inserts every recording in one transaction (imports and benchmarks); returns the new count.
    func insertAll(_ recordings: [Recording]) async throws(RollError) -> Int

    /// The recording with this id, or nil.
    func recording(id: Int64) async throws(RollError) -> Recording?

    /// One page, newest first, of the recordings after `cursor` (from the newest when nil);
    /// `limit` nil for all. A cursor stays valid while rows are added or removed: adds land
    /// before it, so paging on never repeats or skips a row that was there when it began.
    /// `ownedBy`: only that user's rows; nil for everyone's.
    func recordings(after cursor: RecordingCursor?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Recording]

    /// Recordings newest first, skipping `offset` (for command-line paging).
    func recordings(offset: Int, limit: Int?) async throws(RollError) -> [Recording]

    /// How many recordings there are.
    func count() async throws(RollError) -> Int

    /// Deletes the row with this id; returns whether there was one.
    @discardableResult
    func delete(id: Int64) async throws(RollError) -> Bool

    /// The id of a recording of `owner` (nil: the server's own) whose file has this SHA-256, if any.
    func recordingID(sha256: String, owner: String?) async throws(RollError) -> Int64?

    /// Replaces the stored media facts, size and hash of recording `recording.id`
    /// (a file that changed on disk); returns whether the row exists.
    @discardableResult
    func updateContent(_ recording: Recording) async throws(RollError) -> Bool
}

extension RecordingCatalog {
    /// Everyone's recordings, a page after `cursor`.
    public func recordings(after cursor: RecordingCursor?, limit: Int?) async throws(RollError) -> [Recording] {
        try await recordings(after: cursor, limit: limit, ownedBy: nil)
    }

    /// The id of one of the server's own recordings (no owner) with this SHA-256, if any.
    public func recordingID(sha256: String) async throws(RollError) -> Int64? {
        try await recordingID(sha256: sha256, owner: nil)
    }
}
