import Foundation
import Synchronization

/// Resumable uploads (tus 1.0.0) into a roll: their bytes and state under `recordings/.uploads/`.
///
/// Each upload is two files named by its id (32 hex digits the store makes; no name ever comes
/// from a client): `<id>.json`, its ``UploadRecord`` (length, metadata, created, state) written
/// whole through a rename, and `<id>.part`, the bytes received. The offset is the part's size,
/// fsync'd at the end of every PATCH, so after a crash (even kill -9) the offset a restarted
/// server reports is what it holds, and the client resumes from there.
///
/// `.uploads/` and not `.incoming/`: `feed roll verify --fix` deletes whatever is in `.incoming/`
/// as crash leftovers, and verify skips hidden folders of `recordings/`, so uploads in progress
/// survive a repair. They leave through ``expire()`` instead.
///
/// A complete upload joins the roll like `feed roll add --move`: the part is hard-linked as
/// `<id>.<ext>` and that link is added (probe, hash, rename into `recordings/`, fsync, row), so
/// the roll's own crash ordering holds. Only then is the record rewritten as `done` (or `failed`
/// with the reason, nothing added) and the part removed. A crash in between leaves a complete
/// part and an `uploading` record, which ``recover()`` finishes at the next start: if the row
/// was already inserted the add sees the same bytes and the upload is `done` with that id; if the
/// file had been renamed in without its row, that orphan (the same inode) is removed once the
/// add has gone through again.
///
/// One request at a time per upload: PATCH, DELETE and completion claim the id, and a second
/// one meanwhile gets ``UploadError/busy(id:)``.
public final class UploadStore: Sendable {
    /// The roll completed uploads join.
    public let roll: Roll
    /// `recordings/.uploads/`.
    public let folder: URL
    /// The largest `Upload-Length` accepted, in bytes.
    public let maxSize: Int64
    /// Seconds after its last byte that an unfinished upload is removed, and after it finished
    /// that a finished one's status is forgotten.
    public let expiry: TimeInterval
    /// Files of no upload (an interrupted removal, a stale temporary) older than this are swept.
    static let leftoverAge: TimeInterval = 60

    /// The time (tests move it).
    let clock: @Sendable () -> Date
    private let claims = Mutex<Set<String>>([])

    /// A store for `roll`'s uploads. `clock` gives the time (tests move it).
    public init(roll: Roll, maxSize: Int64, expiry: TimeInterval, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.roll = roll
        folder = roll.paths.uploads
        self.maxSize = maxSize
        self.expiry = expiry
        self.clock = clock
    }

    // MARK: Creation, status, termination

    /// Starts an upload of `length` bytes. An empty one is `failed` at once (no video has no bytes).
    /// - Throws: ``UploadError/tooLarge(length:limit:)``, ``UploadError/invalidRequest(_:)`` for a
    ///   negative length, ``UploadError/roll(_:)`` when the record cannot be written.
    public func create(length: Int64, metadata: UploadMetadata) throws(UploadError) -> Upload {
        guard length >= 0 else { throw .invalidRequest("Upload-Length must be 0 or more, not \(length)") }
        guard length <= maxSize else { throw .tooLarge(length: length, limit: maxSize) }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .roll(.io(path: folder.path, reason: "cannot create folder: \(error.localizedDescription)"))
        }
        let now = clock().timeIntervalSince1970
        var record = UploadRecord(id: Self.newID(), length: length, metadata: metadata.header, created: now, phase: .uploading)
        if length == 0 {
            record.phase = .failed
            record.error = RollError.notMedia(path: metadata.filename ?? record.id, reason: "the upload is empty").description
            record.finished = now
        }
        try save(record)
        return upload(record)
    }

    /// The upload with this id.
    /// - Throws: ``UploadError/unknownUpload(_:)`` for an id that is malformed, unknown or expired.
    public func upload(id: String) throws(UploadError) -> Upload {
        guard Self.isValid(id), let record = load(id) else { throw .unknownUpload(id) }
        let found = upload(record)
        guard !isExpired(found) || isClaimed(id) else { throw .unknownUpload(id) }
        return found
    }

    /// Ends an upload (tus termination): its bytes and record are removed. A finished upload's
    /// recording stays in the roll; only the upload's status is forgotten.
    /// - Throws: ``UploadError/unknownUpload(_:)``, ``UploadError/busy(id:)`` while a PATCH writes to it.
    public func delete(id: String) throws(UploadError) {
        guard Self.isValid(id) else { throw .unknownUpload(id) }
        guard claim(id) else { throw .busy(id: id) }
        defer { release(id) }
        _ = try upload(id: id)
        try remove(id)
    }

    // MARK: Expiry

    /// Removes uploads past their ``Upload/expires`` (never one being written or finished) and
    /// files of no upload older than a minute. Cheap: one listing and a small read per upload.
    /// - Returns: the ids removed.
    @discardableResult
    public func expire() -> [String] {
        let now = clock()
        var removed: [String] = []
        var known = Set<String>()
        for name in listing() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let id = String(name.dropLast(5))
            guard Self.isValid(id), let record = load(id) else { continue }
            known.insert(id)
            let found = upload(record)
            guard isExpired(found, now: now), claim(id) else { continue }
            defer { release(id) }
            if (try? remove(id)) != nil { removed.append(id) }
        }
        for name in listing() {
            let id = String(name.prefix(32))
            guard !known.contains(id), !isClaimed(id), let modified = modification(folder.appendingPathComponent(name)),
                  now.timeIntervalSince(modified) > Self.leftoverAge else { continue }
            try? DurableFile.remove(folder.appendingPathComponent(name))
        }
        return removed
    }

    // MARK: Files

    func recordURL(_ id: String) -> URL { folder.appendingPathComponent(id + ".json") }
    func partURL(_ id: String) -> URL { folder.appendingPathComponent(id + ".part") }

    func load(_ id: String) -> UploadRecord? {
        guard let data = try? Data(contentsOf: recordURL(id)) else { return nil }
        return try? JSONDecoder().decode(UploadRecord.self, from: data)
    }

    /// Writes the record whole (temporary file, fsync, rename) and fsyncs the folder.
    func save(_ record: UploadRecord) throws(UploadError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(record)) + [0x0A] } catch {
            throw .roll(.io(path: recordURL(record.id).path, reason: "cannot encode: \(error)"))
        }
        do {
            try DurableFile.writeAtomically(bytes, to: recordURL(record.id))
            try DurableFile.sync(folder)
        } catch { throw .roll(error) }
    }

    /// Removes an upload's record first (it no longer exists), then its bytes.
    private func remove(_ id: String) throws(UploadError) {
        do {
            try DurableFile.remove(recordURL(id))
            try DurableFile.sync(folder)
            try DurableFile.remove(partURL(id))
            for name in listing() where name.hasPrefix(id + ".") { try DurableFile.remove(folder.appendingPathComponent(name)) }
        } catch { throw .roll(error) }
    }

    /// The upload a record describes, its offset read from the part's size.
    func upload(_ record: UploadRecord) -> Upload {
        let metadata = (try? UploadMetadata(header: record.metadata)) ?? UploadMetadata()
        let created = Date(timeIntervalSince1970: record.created)
        switch record.phase {
        case .uploading:
            let (size, modified) = partInfo(record.id)
            let offset = min(size, record.length)
            let last = max(created, modified ?? created)
            return Upload(id: record.id, length: record.length, offset: offset, metadata: metadata, created: created,
                          expires: last.addingTimeInterval(expiry), state: offset == record.length ? .processing : .uploading)
        case .done, .failed:
            let finished = Date(timeIntervalSince1970: record.finished ?? record.created)
            let state: Upload.State = record.phase == .done ? .done(recordingID: record.recordingID ?? 0) : .failed(reason: record.error ?? "failed")
            return Upload(id: record.id, length: record.length, offset: record.length, metadata: metadata, created: created,
                          expires: finished.addingTimeInterval(expiry), state: state)
        }
    }

    /// A complete upload waiting to be added never expires: ``recover()`` adds it first.
    private func isExpired(_ upload: Upload, now: Date? = nil) -> Bool {
        upload.state != .processing && upload.expires <= (now ?? clock())
    }

    private func partInfo(_ id: String) -> (size: Int64, modified: Date?) {
        var info = stat()
        guard stat(partURL(id).path, &info) == 0 else { return (0, nil) }
        return (Int64(info.st_size), Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
    }

    private func modification(_ url: URL) -> Date? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
    }

    func listing() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    // MARK: Ids and claims

    /// A new id: 128 random bits as 32 lowercase hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `text` is an id this store could have made: exactly 32 of `0-9a-f`. Checked
    /// before any file is touched, so `..`, `/`, `%2F` or NUL never reach a path.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    func claim(_ id: String) -> Bool { claims.withLock { $0.insert(id).inserted } }
    func release(_ id: String) { _ = claims.withLock { $0.remove(id) } }
    func isClaimed(_ id: String) -> Bool { claims.withLock { $0.contains(id) } }
}
