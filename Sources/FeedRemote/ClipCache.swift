import Crypto
import FeedCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A disk cache of remote clips, for `feed play`: a clip is downloaded once, and shown again
/// (swiping back, or in a later run) from the disk.
///
/// Layout, for each URL's key (the SHA-256 of the URL, in hex): `KEY.clip` (the bytes) with
/// `KEY.json` (URL, ETag, Last-Modified, length); while downloading, `KEY.part` with
/// `KEY.part.json`; `KEY.lock`, the entry's lock.
///
/// - A clip is written to its part, flushed, checked against the length the server announced,
///   and only then renamed into place: a `.clip` is always whole.
/// - An interrupted download resumes where it stopped (`Range`, with `If-Range` so a clip that
///   changed meanwhile starts over).
/// - A complete entry is used without asking the server again: clip URLs are treated as
///   immutable, as CDNs serve them. Its length is checked against the file on every use, and
///   `feed cache clear` drops everything.
/// - Downloads of one URL are serialised by the entry's `flock`, across processes and within
///   one: the second waits, then finds the clip there.
/// - After each download, least recently used clips (by the time each was last returned) are
///   removed until the cache is within `limit`; the clip just fetched and clips being
///   downloaded are never removed. A single clip larger than `limit` is kept until the next
///   download. A clip removed by another process while this one plays it stays readable to
///   the player that opened it (POSIX unlink), but a player that had not yet opened it fails
///   that clip; with the default 1 GiB this needs two players evicting each other's current clip.
public final class ClipCache: ClipFetcher {
    /// The default bound: 1 GiB.
    public static let defaultLimit: Int64 = 1 << 30
    /// The most bytes one clip may have: the loader's 1 GiB.
    public static let clipLimit: Int64 = 1 << 30

    /// The cache folder (created at the first download).
    public let folder: URL
    /// The bound on the bytes kept.
    public let limit: Int64
    /// Seconds a download may go without receiving a byte before it fails as stalled (a whole
    /// transfer has no deadline: clips can be large and links slow).
    public let timeout: TimeInterval

    /// A cache in `folder` holding at most `limit` bytes; downloads fail after `timeout` seconds
    /// without a byte.
    public init(folder: URL, limit: Int64 = ClipCache.defaultLimit, timeout: TimeInterval = 120) {
        self.folder = folder
        self.limit = limit
        self.timeout = timeout
    }

    /// `$FEED_HOME/cache/clips` when `FEED_HOME` is set (it moves everything feed keeps, the
    /// roll and this cache, as a test or a second setup expects), else
    /// `$XDG_CACHE_HOME/feed/clips` when that is set to an absolute path, else
    /// `~/.cache/feed/clips`, as the XDG base directory specification says.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["FEED_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent("cache/clips")
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("feed/clips")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/feed/clips")
    }

    /// ``ClipFetcher``: the path of the cached copy of `url`.
    public func localFile(for url: String) async throws -> String {
        guard let parsed = URL(string: url) else { throw RemoteError.unsupported(url: URLCredentials.redacted(url: url)) }
        return try await file(for: parsed).path
    }

    /// A complete local copy of the http(s) clip at `url`: from the cache, else downloaded
    /// (resuming a partial download) into it.
    /// - Throws: ``RemoteError``, or `CancellationError` when the task is cancelled while
    ///   waiting for another download of the same clip.
    public func file(for url: URL) async throws -> URL {
        // Kept and shown without its password; the key is the whole URL's.
        let shown = URLCredentials.redacted(url: url.absoluteString)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { throw RemoteError.unsupported(url: shown) }
        let paths = Paths(folder: folder.path, key: Self.key(url.absoluteString))
        if hit(paths, url: shown) { return URL(fileURLWithPath: paths.clip) }
        try createFolder()
        let lock = try await EntryLock.acquire(paths.lock)
        defer { lock.release() }
        if hit(paths, url: shown) { return URL(fileURLWithPath: paths.clip) }
        let download = ClipDownload(url: url, part: paths.part, partMetadata: paths.partMetadata, limit: Self.clipLimit, timeout: timeout)
        let metadata: ClipMetadata
        do {
            metadata = try await download.run()
        } catch {
            // A part that can never be resumed (too large, or from a server with no validator to
            // resume against) is only weight: it goes, and the cache is brought within its limit.
            if case .tooLarge = error { Self.removePart(paths) }
            if ClipMetadata.read(paths.partMetadata)?.validator == nil { Self.removePart(paths) }
            evict(keeping: paths.key)
            throw error
        }
        try metadata.write(paths.metadata)
        guard rename(paths.part, paths.clip) == 0 else { throw RemoteError.cache(path: paths.clip, reason: String(cString: strerror(errno))) }
        unlink(paths.partMetadata)
        Self.syncFolder(folder.path)
        touch(paths.clip)
        evict(keeping: paths.key)
        return URL(fileURLWithPath: paths.clip)
    }

    /// Every clip and partial download, most recently used first.
    public func entries() -> [ClipCacheEntry] {
        var entries: [ClipCacheEntry] = []
        for name in names() {
            if name.hasSuffix(".clip") {
                let key = String(name.dropLast(5)), paths = Paths(folder: folder.path, key: key)
                guard let metadata = ClipMetadata.read(paths.metadata), let info = Self.info(paths.clip) else { continue }
                entries.append(ClipCacheEntry(url: metadata.url, bytes: info.size, lastUsed: info.modified, complete: true))
            } else if name.hasSuffix(".part") {
                let key = String(name.dropLast(5)), paths = Paths(folder: folder.path, key: key)
                guard let info = Self.info(paths.part) else { continue }
                let url = ClipMetadata.read(paths.partMetadata)?.url ?? "?"
                entries.append(ClipCacheEntry(url: url, bytes: info.size, lastUsed: info.modified, complete: false))
            }
        }
        return entries.sorted { $0.lastUsed > $1.lastUsed }
    }

    /// Bytes of every file in the cache.
    public var totalBytes: Int64 {
        names().reduce(0) { $0 + (Self.info(folder.path + "/" + $1)?.size ?? 0) }
    }

    /// Removes every entry, partial downloads included, but those being downloaded right now;
    /// the folder stays. Returns the bytes freed.
    @discardableResult
    public func clear() throws(RemoteError) -> Int64 {
        var freed: Int64 = 0
        let keys = Set(names().compactMap { name in name.split(separator: ".", maxSplits: 1).first.map(String.init) })
        for key in keys where key.count == 64 {
            let paths = Paths(folder: folder.path, key: key)
            guard let lock = try EntryLock.attempt(paths.lock) else { continue }
            for path in [paths.clip, paths.metadata, paths.part, paths.partMetadata] {
                let size = Self.info(path)?.size ?? 0
                if unlink(path) == 0 { freed += size }
            }
            unlink(paths.lock)
            lock.release()
        }
        return freed
    }

    // MARK: - Entries

    /// The files of one entry.
    struct Paths {
        let folder: String
        let key: String
        var clip: String { "\(folder)/\(key).clip" }
        var metadata: String { "\(folder)/\(key).json" }
        var part: String { "\(folder)/\(key).part" }
        var partMetadata: String { "\(folder)/\(key).part.json" }
        var lock: String { "\(folder)/\(key).lock" }
    }

    /// The entry's key: the SHA-256 of the URL, in hex.
    static func key(_ url: String) -> String {
        SHA256.hex(Data(url.utf8))
    }

    /// Whether the entry holds the whole clip of `url`; marks it used when it does.
    private func hit(_ paths: Paths, url: String) -> Bool {
        guard let metadata = ClipMetadata.read(paths.metadata), metadata.url == url,
              let info = Self.info(paths.clip), metadata.length == info.size else { return false }
        touch(paths.clip)
        return true
    }

    /// Removes least recently used clips and partial downloads until the cache is within
    /// ``limit``, never `key`'s and never one being downloaded (its entry lock is held). One
    /// process evicts at a time; another that finds the eviction lock held skips its turn.
    private func evict(keeping key: String) {
        guard let turn = try? EntryLock.attempt(folder.path + "/.evict.lock") else { return }
        defer { turn.release() }
        var total = totalBytes
        guard total > limit else { return }
        let entries = names().filter { $0.hasSuffix(".clip") || $0.hasSuffix(".part") }.compactMap { name -> (key: String, size: Int64, used: Date)? in
            guard let info = Self.info(folder.path + "/" + name) else { return nil }
            return (String(name.dropLast(5)), info.size, info.modified)
        }.sorted { $0.used < $1.used }
        for entry in entries where total > limit && entry.key != key {
            let paths = Paths(folder: folder.path, key: entry.key)
            guard let lock = try? EntryLock.attempt(paths.lock) else { continue }
            for file in [paths.clip, paths.metadata, paths.part, paths.partMetadata] {
                let size = Self.info(file)?.size ?? 0
                if unlink(file) == 0 { total -= size }
            }
            unlink(paths.lock)
            lock.release()
        }
    }

    /// Removes an entry's partial download and its metadata.
    private static func removePart(_ paths: Paths) {
        unlink(paths.part)
        unlink(paths.partMetadata)
    }

    // MARK: - Files

    private func createFolder() throws(RemoteError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cache(path: folder.path, reason: error.localizedDescription)
        }
    }

    private func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// Sets the file's modification time to now: the least recently used order. The time is read
    /// from the fine clock and given explicitly; with `nil` the kernel stamps its coarse clock
    /// (a few ms), so a clip used right after another downloaded could tie with it.
    private func touch(_ path: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, now]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    private static func info(_ path: String) -> (size: Int64, modified: Date)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return (Int64(info.st_size), Date(timeIntervalSince1970: seconds))
    }

    private static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
