import Crypto
import Foundation

/// The files a server gives players, fast start: an MP4 whose `moov` follows its media is served
/// from a copy with `moov` moved first (``FastStart``), made on first request and kept in
/// the store; one that already leads, or that is no MP4, is served as it is. The originals are
/// never changed, so a recording's `sha256` stays the fingerprint of the bytes as they came.
/// Copies are media of the roll's store (``MediaKey/Kind/fastStart``): made in its staging area
/// and published there.
///
/// Each file's layout and first-picture length (``preloadBytes(for:)``) are remembered until
/// its size or modification time changes.
public final class FastStartCopies: Sendable {
    /// Where copies live: the roll's media store (`recordings/.faststart/` in a folder).
    public let store: any MediaStore

    private struct Entry: Sendable {
        let size: Int64
        let modified: Int64
        /// The copy to serve, once made (nil: serve the original, or not made yet).
        var copy: String?
        /// Whether the original's `moov` follows its media (so a copy is wanted), until making
        /// the copy failed once: then the original is served until the file changes.
        var wantsCopy: Bool
        /// Of the fast-start form; nil once the original is served instead (`moov` at its end).
        var preloadBytes: Int64?
    }

    private let entries = Locked<[String: Entry]>([:])
    /// The SHA-256 of served copies, by path, while their size and time stay.
    private let digests = Locked<[String: (size: Int64, modified: Int64, sha256: String)]>([:])

    public init(store: any MediaStore) {
        self.store = store
    }

    /// The file to serve for the original at `path` when no work is needed: the original, or
    /// a copy made before. Nil when the copy must be made first (``served(_:name:)``) or the
    /// file is gone.
    public func cached(_ path: String) -> String? {
        guard let stamp = Self.stamp(path), let entry = entries.withLock({ $0[path] }),
              entry.size == stamp.size, entry.modified == stamp.modified else { return nil }
        if !entry.wantsCopy { return path }
        if let copy = entry.copy, FileManager.default.fileExists(atPath: copy) { return copy }
        return nil
    }

    /// The file to serve for the original at `path`, making its fast-start copy when it needs
    /// one; `name` names the copy in the store (a recording's stored name; nil: one derived
    /// from the path, size and time). Blocking file work: call it off an event loop. When the
    /// copy cannot be made (a compressed `moov`, a full disk) the original is served.
    public func served(_ path: String, name: String? = nil) -> String {
        if let ready = cached(path) { return ready }
        guard let entry = entry(for: path) else { return path }
        guard entry.wantsCopy else { return path }
        let key = MediaKey.fastStart(name.map(RollPaths.storedName) ?? derivedName(path, entry))
        let copy = store.localFile(for: key).path
        if !Self.isCopy(copy, newerThan: entry.modified) {
            guard make(key, from: path) else {
                // Not tried again on every request: the original is served until the file changes.
                entries.withLock {
                    $0[path]?.wantsCopy = false
                    $0[path]?.preloadBytes = nil
                }
                return path
            }
        }
        entries.withLock { $0[path]?.copy = copy }
        if name == nil { sweep(path, keeping: copy) }
        return copy
    }

    /// Makes the fast-start form of `path` in the store's staging area and publishes it as `key`,
    /// replacing an older copy; false (nothing left) when it cannot be made.
    private func make(_ key: MediaKey, from path: String) -> Bool {
        guard let staged = try? store.stage(key) else { return false }
        guard (try? FastStart.write(input: path, output: staged.path)) != nil,
              (try? store.publish(key, from: staged, replacing: true)) != nil else {
            try? store.discardIncomplete(staged.lastPathComponent)
            return false
        }
        return true
    }

    /// Deletes the copies made for earlier versions of the feed clip at `path` (same path, other
    /// size or time): a clip edited while served leaves one copy, not one per edit.
    private func sweep(_ path: String, keeping copy: String) {
        let prefix = derivedPrefix(path), kept = (copy as NSString).lastPathComponent
        for stale in store.keys(.fastStart) where stale.name.hasPrefix(prefix) && stale.name != kept {
            try? store.remove(stale)
        }
    }

    /// How long a feed clip's copy that no feed being served names is kept after it was last
    /// read or made: a week, so a server restarted with another feed, or another server sharing
    /// the roll with its own feed, finds its copies still there.
    public static let unusedFeedClipCopyLifetime: TimeInterval = 7 * 24 * 3600

    /// Deletes the copies of feed clips that are not of a path in `kept` (the local clips of the
    /// feed this server serves) and were last read or made more than `unused` seconds before
    /// `now`: the copies of clips that left the feed go, and the store does not grow with every
    /// feed ever served. "Read" is the file's access time, which a read moves on at least once a
    /// day under the `relatime` mount default; on a `noatime` mount a copy another server still
    /// reads can go, and is made again on its next request. Recordings' copies are left alone
    /// (`roll verify --fix` deletes those of recordings that went or changed). Returns the names
    /// deleted. Blocking file work.
    public func sweepFeedClipCopies(keeping kept: [String], unusedFor unused: TimeInterval, now: Date = Date()) -> [String] {
        let keptPrefixes = Set(kept.map(derivedPrefix))
        let names = store.keys(.fastStart).map(\.name)
        let cutoff = now.timeIntervalSince1970 - unused
        var removed: [String] = []
        for name in names.sorted() where Self.isFeedClipCopy(name) && !keptPrefixes.contains(String(name.prefix(Self.derivedPrefixLength))) {
            let key = MediaKey.fastStart(name)
            var info = stat()
            guard lstat(store.localFile(for: key).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let lastUse = max(Double(info.st_atim.tv_sec), Double(info.st_mtim.tv_sec))
            guard lastUse < cutoff, (try? store.remove(key)) != nil else { continue }
            removed.append(name)
        }
        return removed
    }

    /// How many leading bytes of the served form of `path` hold its first picture (``MP4Movie/preloadBytes``);
    /// nil for a file that is no MP4 or whose tables do not say. Reads `moov`, not the media,
    /// and makes no copy.
    public func preloadBytes(for path: String) -> Int64? {
        entry(for: path)?.preloadBytes
    }

    /// The SHA-256 (hex) of the file at `path` (a copy ``served(_:name:)`` gave), hashed once and
    /// remembered while its size and time stay: what `Repr-Digest` says of a served copy, whose
    /// bytes are not the recording's. Nil when it cannot be read. Blocking: reads the file.
    public func sha256(of path: String) -> String? {
        guard let stamp = Self.stamp(path) else { return nil }
        if let known = digests.withLock({ $0[path] }), known.size == stamp.size, known.modified == stamp.modified { return known.sha256 }
        guard let hashed = try? DurableFile.hash(URL(fileURLWithPath: path)) else { return nil }
        digests.withLock { $0[path] = (stamp.size, stamp.modified, hashed.sha256) }
        return hashed.sha256
    }

    /// Deletes the copy named `name` (a recording's stored name), if there is one.
    public func remove(name: String) {
        let key = MediaKey.fastStart(RollPaths.storedName(name))
        let copy = store.localFile(for: key).path
        try? store.remove(key)
        entries.withLock { entries in
            for (key, entry) in entries where entry.copy == copy { entries[key] = nil }
        }
    }

    private func entry(for path: String) -> Entry? {
        guard let stamp = Self.stamp(path) else { return nil }
        if let entry = entries.withLock({ $0[path] }), entry.size == stamp.size, entry.modified == stamp.modified { return entry }
        let movie = try? MP4Movie.read(path: path)
        let entry = Entry(size: stamp.size, modified: stamp.modified, copy: nil, wantsCopy: movie?.layout.index == .end,
                          preloadBytes: movie?.preloadBytes)
        entries.withLock { $0[path] = entry }
        return entry
    }

    /// `clip-<hash of path>-<size>-<mtime>.<ext>`: a changed feed clip gets a new copy.
    private func derivedName(_ path: String, _ entry: Entry) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return derivedPrefix(path) + "\(entry.size)-\(entry.modified).\(ext.isEmpty ? "mp4" : ext)"
    }

    /// Whether `name` is that of a feed clip's copy (`clip-<16 hex>-<size>-<mtime>.<ext>`, as
    /// ``derivedName(_:_:)`` makes them), not a recording's (named after its stored file).
    public static func isFeedClipCopy(_ name: String) -> Bool {
        name.wholeMatch(of: /clip-[0-9a-f]{16}-[0-9]+-[0-9]+\.[^.]+/) != nil
    }

    /// The length of ``derivedPrefix(_:)``: `clip-`, 16 hex digits, `-`.
    private static let derivedPrefixLength = 22

    /// `clip-<hash of path>-`: what every copy of the clip at `path` is named from.
    private func derivedPrefix(_ path: String) -> String {
        let hash = SHA256.hash(data: Data(path.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return "clip-\(hash)-"
    }

    /// Whether `copy` exists and was written after the original's modification time (ns): a
    /// recording's copy is named after the recording, so a file rewritten since (and adopted by
    /// `verify --fix`) would otherwise keep being served as its old copy.
    private static func isCopy(_ copy: String, newerThan modified: Int64) -> Bool {
        guard let written = stamp(copy) else { return false }
        return written.modified >= modified
    }

    /// Size and modification time (ns) of a regular file.
    private static func stamp(_ path: String) -> (size: Int64, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        // Wrapping: a time past 2262 (`touch -d 2300-01-01`) passes Int64's nanoseconds; a stamp only has to change.
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
    }
}
