import Foundation

/// Where stored media lives: every write, read and removal of a recording's bytes, and of what
/// is made from them (posters, storyboards, ladders, fast-start copies), goes through one of
/// these, so the roll orders catalog rows and media steps without knowing whether the bytes are
/// in a folder (``FolderMediaStore``, today's) or elsewhere.
///
/// The crash ordering, stated once for every implementation:
/// - **put**: the bytes are staged where no reader looks, made durable, checked (`check`: a
///   duplicate is refused before anything is published), then published under their key in one
///   atomic step. The roll writes the row after `put` returns, so a crash leaves either staged
///   leftovers (``incomplete()``, removed by `fix`) or a published medium without a row (an
///   orphan `fix` adopts), never a row without its bytes.
/// - **remove**: ``retire(_:as:)`` first (readers no longer find the key; the bytes are kept
///   under the retirement's name), then the roll deletes the row, then ``purge(retired:)``. A crash
///   leaves a row whose medium is retired (an interrupted removal) or a retired leftover; `fix`
///   finishes both.
/// - **derived media** (every kind but recordings) have no row: they are made on local disk
///   where ``stage(_:)`` says, then ``publish(_:from:replacing:)`` makes them readable in one
///   step, a set's members before the file it is found by (a ladder's segments before its
///   playlists), so a reader that finds a key finds all of it. A crash leaves staged work
///   (``incomplete()``: the runner sweeps what is unwritten for an hour, `fix` the rest).
/// - **uploads** (``MediaKey/Kind/upload``) grow in place: ``append(to:at:)`` writes, its
///   ``MediaAppender/sync()`` makes them durable, and ``size(of:)`` is the offset a client
///   resumes from, never more than was synced. A complete one joins the roll through a second
///   name (``alias(_:as:)``) that `put` moves in, so the upload's own bytes stay until its
///   record says `done`; ``recording(sharingBytesOf:)`` finds a move a crash cut short.
/// Each call is atomic on its own; the implementation says how (fsync and rename for a folder).
public protocol MediaStore: Sendable {
    /// Places the local file `source` at `key` (see the ordering above), hashing it on the way:
    /// copied, linked (`link`: a hard link or, across file systems, a symbolic one) or moved
    /// (`move`: the file itself when it can, else copied and left for the caller to remove).
    /// `check` sees the fingerprint before the bytes are published; what it throws leaves nothing.
    func put(_ key: MediaKey, from source: URL, mode: AddOptions.Mode,
             check: (_ sha256: String, _ bytes: Int64) async throws(RollError) -> Void) async throws(RollError) -> MediaPlacement

    /// Stores `bytes` at `key` whole or not at all (a derived medium: a poster), replacing what
    /// was there; durable when it returns.
    func write(_ bytes: [UInt8], at key: MediaKey) throws(RollError)

    /// A fresh local path to make `key`'s medium at: nothing is there yet (a set's maker creates
    /// the folder). It counts as ``incomplete()`` until published or discarded.
    func stage(_ key: MediaKey) throws(RollError) -> URL

    /// Publishes what was made at `staged` (from ``stage(_:)``) as `key`'s medium, whole, and
    /// takes it from there. When `key` already has one it is replaced if `replacing`; if not, the
    /// one there stays (another maker was first), the staged work is discarded, and the answer
    /// is false.
    @discardableResult
    func publish(_ key: MediaKey, from staged: URL, replacing: Bool) throws(RollError) -> Bool

    /// Takes back a placement whose row was refused: a `move` that took the source goes back to
    /// the source's name; anything else is removed.
    func takeBack(_ placement: MediaPlacement, to source: URL) throws(RollError)

    /// Removes the medium at `key` (a set with all it holds); one already gone is fine.
    func remove(_ key: MediaKey) throws(RollError)

    /// Step 1 of a removal: `key` is no longer found; its bytes are kept as `name` until
    /// ``purge(retired:)``. Returns false when there was nothing at `key`.
    func retire(_ key: MediaKey, as name: String) throws(RollError) -> Bool

    /// Step 3 of a removal: the retired bytes `name` go.
    func purge(retired name: String) throws(RollError)

    /// Whether something is stored at `key` (a symbolic link to nothing counts as nothing).
    func exists(_ key: MediaKey) -> Bool

    /// A local file FFmpeg and the server can open for `key`'s bytes. For a folder, the stored
    /// file itself; for a remote store, a local copy (fetched here on first use). It may not
    /// exist (see ``exists(_:)``).
    func localFile(for key: MediaKey) -> URL

    /// Where `key`'s medium is, as listings show it (see the default, a file's path).
    func address(of key: MediaKey) -> String

    /// Throws when the store cannot answer now (a bucket unreachable, keys refused): what
    /// `verify` asks first, and again before `fix` drops a row whose medium seems gone, since
    /// ``exists(_:)`` cannot tell "not there" from "no answer". A folder always answers.
    func checkReachable() throws(RollError)

    /// A URL a client may fetch `key`'s bytes (for a set, those of its file `member`, a path
    /// inside it) from itself until `expires` (an object store's presigned URL, or a CDN's),
    /// which a server answers with a redirect; nil (a folder's, the default): the server sends
    /// the bytes.
    func directURL(for key: MediaKey, member: String?, expires: Date) -> URL?

    /// The keys of `kind` stored now (for `verify`: media without a row, derived media of
    /// recordings gone). For derived kinds this includes leftovers of older versions' own
    /// staging (hidden names), which are never a key the roll asks for, so they count as stale.
    func keys(_ kind: MediaKey.Kind) -> [MediaKey]

    /// Opens the upload at `key` to append at `offset` (the size of what is there; 0 creates it).
    func append(to key: MediaKey, at offset: Int64) throws(RollError) -> any MediaAppender

    /// The size of the bytes at `key` and when they last changed; nil when nothing is there.
    func size(of key: MediaKey) -> (bytes: Int64, modified: Date)?

    /// A second key, `name` of the same kind, for the bytes at `key` (a hard link for a folder):
    /// removing either leaves the other. One already at `name` is replaced.
    func alias(_ key: MediaKey, as name: String) throws(RollError) -> MediaKey

    /// The recording whose stored bytes are the very bytes at `key` (not a copy): an upload
    /// whose move into the roll a crash cut short before its row. Nil when there is none.
    func recording(sharingBytesOf key: MediaKey) -> MediaKey?

    /// Names of retired media not yet purged (removals under way, or cut short by a crash).
    func retired() -> [String]

    /// Names of staged writes never published (puts cut short by a crash).
    func incomplete() -> [String]

    /// Removes the staged write `name` (see ``incomplete()``), a file or a folder.
    func discardIncomplete(_ name: String) throws(RollError)

    /// When the staged write `name` (or, for a folder, anything directly in it or in its
    /// folders) last changed: how the runner tells work a dead process left from work under way.
    func lastChange(ofIncomplete name: String) -> Date?
}

extension MediaStore {
    /// Where `key`'s medium is, as listings show it: a file's path for a folder, an object's
    /// `s3://` URL for a bucket. Nothing is fetched to say so.
    public func address(of key: MediaKey) -> String { localFile(for: key).path }

    public func directURL(for key: MediaKey, member: String?, expires: Date) -> URL? { nil }

    public func checkReachable() throws(RollError) {}

    /// ``directURL(for:member:expires:)`` of a medium that is one file.
    public func directURL(for key: MediaKey, expires: Date) -> URL? { directURL(for: key, member: nil, expires: expires) }

    /// The SHA-256 (hex) and size of the bytes at `key`.
    public func fingerprint(of key: MediaKey) throws(RollError) -> (sha256: String, bytes: Int64) {
        try DurableFile.hash(localFile(for: key))
    }

    /// When the bytes at `key` last changed (for a medium adopted without a row), if known.
    public func modified(_ key: MediaKey) -> Date? { size(of: key)?.modified }
}
