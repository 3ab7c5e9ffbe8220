import Crypto
import FeedCore
import Foundation
import NIOCore

/// Stored media in a bucket of an S3-compatible store, under the prefix of an ``S3Location``:
/// a recording is `<prefix>/recordings/<name>`, posters `posters/`, storyboards `storyboards/`,
/// ladders `ladders/`, fast-start copies `faststart/`; a removal's retired bytes wait in `trash/`.
///
/// ``MediaStore``'s crash ordering, on objects:
/// - **put**: the bytes go up as one multipart upload, hashed as they are read; `check` sees the
///   fingerprint before the upload is completed, and completing it is the one atomic step that
///   publishes the key. A crash leaves an open multipart upload (``incomplete()``), which
///   `fix` and the runner's sweep abort: never a half object at a key.
/// - **derived media** are made on local disk (``stage(_:)``) and uploaded when done; a set's
///   members first, playlists after them, and last its marker `<name>/.published`, the object a
///   set is found by, so no reader finds a set whose members are not all there.
/// - **remove**: retiring copies the object to `trash/` before deleting it; purge deletes the copy.
///
/// FFmpeg and the server read local files: ``localFile(for:)`` downloads a medium into the
/// cache folder on first use (to a temporary name, then renamed) and keeps it; media are never
/// changed in place, so a cached copy stays right.
public final class S3MediaStore: MediaStore {
    /// Where in the store.
    public let location: S3Location
    /// The client.
    public let client: S3Client
    /// Local copies of media and staged work: the roll's folder, never shared.
    public let cache: URL
    /// Bytes per part of a multipart upload (8 MiB: boto3's default), and parts sent at once.
    public let partSize: Int
    public let concurrency: Int
    /// How a server gives players the objects (``directURL(for:expires:)``).
    public let serving: S3Serving
    let blocking = S3Blocking()
    let files = BlockingPool(name: "feed.s3.files", threads: 2)

    /// A store at `location` through `client`, its local copies under `cache`.
    public init(location: S3Location, client: S3Client, cache: URL, partSize: Int = 8 << 20, concurrency: Int = 4,
                serving: S3Serving = .redirect) {
        self.serving = serving
        self.location = location
        self.client = client
        self.cache = cache
        self.partSize = max(partSize, S3Client.minimumPartSize)
        self.concurrency = max(1, concurrency)
    }

    /// Ends the store's threads (its connections are the process's: see ``S3Client``).
    public func shutdown() {
        blocking.shutdown()
        files.shutdown()
    }

    // MARK: Keys

    /// The folder of `kind` below the prefix.
    static func folder(_ kind: MediaKey.Kind) -> String {
        switch kind {
        case .recording: "recordings"
        case .poster: "posters"
        case .storyboard: "storyboards"
        case .ladder: "ladders"
        case .fastStart: "faststart"
        case .upload: "uploads"
        }
    }

    /// The object key of `key` (for a set, the folder its members are under, without `/`).
    func objectKey(_ key: MediaKey) -> String { location.key("\(Self.folder(key.kind))/\(RollPaths.storedName(key.name))") }

    /// The object a set is found by, written after all its members.
    func marker(_ key: MediaKey) -> String { objectKey(key) + "/.published" }

    /// `s3://bucket/key` of `key`, for messages.
    func shown(_ key: MediaKey) -> String { client.target(key.kind.isSet ? objectKey(key) + "/" : objectKey(key)) }

    public func address(of key: MediaKey) -> String { shown(key) }

    /// One `HEAD` under the prefix: any answer but an error (a 404 included) is an answer.
    public func checkReachable() throws(RollError) {
        let client = client, probe = location.key(".feed-reachable")
        try wait { () throws(S3Error) in _ = try await client.head(probe) }
    }

    /// A presigned GET of `key`'s object (a set's `member`) until `expires` (at most the 7 days
    /// SigV4 allows), or the public base's URL of it; nil when proxying.
    public func directURL(for key: MediaKey, member: String?, expires: Date) -> URL? {
        guard key.kind.isSet == (member != nil) else { return nil }
        let objectKey = member.map { "\(self.objectKey(key))/\($0)" } ?? self.objectKey(key)
        switch serving {
        case .proxy: return nil
        case let .publicURL(base):
            let text = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
            return URL(string: text + "/" + SigV4Encoding.encode(objectKey, keepSlash: true))
        case .redirect:
            let now = client.now()
            let seconds = Int(max(1, min(604_800, expires.timeIntervalSince(now).rounded(.up))))
            return client.presignedURL(objectKey, expires: seconds, at: now)
        }
    }

    static func failure(_ error: S3Error) -> RollError { .store(message: error.description, kind: error.kind) }

    /// Runs `body` on the store's threads and waits, mapping its error.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws(S3Error) -> T) throws(RollError) -> T {
        do { return try blocking.run(body) } catch { throw Self.failure(error) }
    }

    // MARK: Recordings

    public func put(_ key: MediaKey, from source: URL, mode: AddOptions.Mode,
                    check: (_ sha256: String, _ bytes: Int64) async throws(RollError) -> Void) async throws(RollError) -> MediaPlacement {
        let (fingerprint, finish) = try await upload(source, to: objectKey(key), contentType: Self.contentType(key.name))
        do {
            try await check(fingerprint.sha256, fingerprint.bytes)
        } catch {
            _ = await finish(false)
            throw error
        }
        CrashPoint.reach(.addStaged)
        guard await finish(true) else { throw RollError.io(path: shown(key), reason: "the store did not complete the upload") }
        CrashPoint.reach(.addRenamed)
        return MediaPlacement(key: key, sha256: fingerprint.sha256, bytes: fingerprint.bytes, tookSource: false, copiedForMove: mode == .move)
    }

    /// Uploads `source` as a multipart upload to `objectKey`, hashing it, without completing it:
    /// the answer's `finish(true)` completes it (false when that failed; the upload is aborted),
    /// `finish(false)` aborts it.
    func upload(_ source: URL, to objectKey: String, contentType: String?) async throws(RollError)
        -> (fingerprint: (sha256: String, bytes: Int64), finish: @Sendable (Bool) async -> Bool) {
        let reader: FileHandle
        do { reader = try FileHandle(forReadingFrom: source) } catch {
            throw FileManager.default.fileExists(atPath: source.path) ? RollError.io(path: source.path, reason: "cannot read") : RollError.missingFile(path: source.path)
        }
        defer { try? reader.close() }
        let client = client
        let id: String
        do { id = try await client.createMultipartUpload(objectKey, contentType: contentType) } catch { throw Self.failure(error) }
        let abort: @Sendable () async -> Void = { try? await client.abortMultipartUpload(objectKey, uploadID: id) }
        var hasher = SHA256()
        var total: Int64 = 0
        var parts: [S3MultipartUpload.Part] = []
        do {
            try await withThrowingTaskGroup(of: S3MultipartUpload.Part.self) { group in
                var number = 0, running = 0
                while true {
                    let size = partSize
                    let chunk = try await files.run { () throws -> Data in try reader.read(upToCount: size) ?? Data() }
                    if chunk.isEmpty && number > 0 { break }
                    hasher.update(data: chunk)
                    total += Int64(chunk.count)
                    number += 1
                    if running == concurrency, let done = try await group.next() { parts.append(done); running -= 1 }
                    let part = number, body = ByteBuffer(bytes: chunk)
                    group.addTask { try await client.uploadPart(objectKey, uploadID: id, number: part, body: body) }
                    running += 1
                    if chunk.count < size { break }
                }
                for try await done in group { parts.append(done) }
            }
        } catch {
            await abort()
            if let error = error as? S3Error { throw Self.failure(error) }
            throw RollError.io(path: source.path, reason: "cannot read: \(error.localizedDescription)")
        }
        let sha256 = hasher.finalize().hex
        let ordered = parts.sorted { $0.number < $1.number }
        let finish: @Sendable (Bool) async -> Bool = { complete in
            guard complete else { await abort(); return false }
            do {
                try await client.completeMultipartUpload(objectKey, uploadID: id, parts: ordered)
                return true
            } catch {
                await abort()
                return false
            }
        }
        return ((sha256, total), finish)
    }

    public func takeBack(_ placement: MediaPlacement, to source: URL) throws(RollError) {
        try remove(placement.key)
    }

    public func write(_ bytes: [UInt8], at key: MediaKey) throws(RollError) {
        let objectKey = objectKey(key), client = client, type = Self.contentType(key.name)
        try wait { () throws(S3Error) in _ = try await client.put(objectKey, body: ByteBuffer(bytes: bytes), contentType: type) }
        try? Self.replaceLocal(cached(key), with: bytes)
    }

    public func exists(_ key: MediaKey) -> Bool {
        let objectKey = key.kind.isSet ? marker(key) : objectKey(key), client = client
        return (try? wait { () throws(S3Error) in try await client.head(objectKey) != nil }) ?? false
    }

    public func remove(_ key: MediaKey) throws(RollError) {
        if key.kind == .upload {
            try removeUpload(key)
            try? FileManager.default.removeItem(at: cached(key))
            return
        }
        let client = client, objectKey = objectKey(key), marker = marker(key), isSet = key.kind.isSet
        try wait { () throws(S3Error) in
            guard isSet else { return try await client.delete(objectKey) }
            try await client.delete(marker)
            for member in try await client.list(prefix: objectKey + "/") { try await client.delete(member.key) }
        }
        try? FileManager.default.removeItem(at: cached(key))
    }

    public func retire(_ key: MediaKey, as name: String) throws(RollError) -> Bool {
        let client = client, objectKey = objectKey(key), trash = location.key("trash/\(RollPaths.storedName(name))")
        let moved = try wait { () throws(S3Error) -> Bool in
            guard let object = try await client.head(objectKey) else { return false }
            try await client.copy(objectKey, to: trash, size: object.size)
            try await client.delete(objectKey)
            return true
        }
        try? FileManager.default.removeItem(at: cached(key))
        return moved
    }

    public func purge(retired name: String) throws(RollError) {
        let client = client, trash = location.key("trash/\(RollPaths.storedName(name))")
        try wait { () throws(S3Error) in try await client.delete(trash) }
    }

    public func retired() -> [String] {
        let client = client, prefix = location.key("trash/")
        let objects = (try? wait { () throws(S3Error) in try await client.list(prefix: prefix) }) ?? []
        return objects.map { String($0.key.dropFirst(prefix.count)) }.filter { !$0.contains("/") }
    }

    public func keys(_ kind: MediaKey.Kind) -> [MediaKey] {
        let client = client, prefix = location.key("\(Self.folder(kind))/")
        let objects = (try? wait { () throws(S3Error) in try await client.list(prefix: prefix) }) ?? []
        let names = objects.map { String($0.key.dropFirst(prefix.count)) }
        if kind.isSet {
            return names.filter { $0.hasSuffix("/.published") }.map { MediaKey(kind: kind, name: String($0.dropLast("/.published".count))) }
        }
        let found = names.filter { !$0.contains("/") }
        let progress = kind == .upload ? uploadsInProgress().filter { !found.contains($0) } : []
        return (found + progress).sorted().map { MediaKey(kind: kind, name: $0) }
    }

    /// `video/mp4` and the like, from a name's extension; nil when unknown.
    static func contentType(_ name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "m4s": "video/iso.segment"
        case "m3u8": "application/vnd.apple.mpegurl"
        case "mpd": "application/dash+xml"
        case "jpg", "jpeg": "image/jpeg"
        case "vtt": "text/vtt"
        default: nil
        }
    }
}
