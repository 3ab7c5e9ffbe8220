import Foundation

/// Resumable uploads (tus 1.0.0) into a roll: their records in the roll's catalog
/// (``UploadRecordStore``: SQLite, or PostgreSQL shared by several servers) and their bytes in
/// the roll's media store (``MediaKey/Kind/upload``: `recordings/.uploads/` on the media folder
/// every node shares).
///
/// An upload's id is 32 hex digits the store makes (no name ever comes from a client); its
/// bytes are `<id>.part`. The offset is the part's size, synced at the end of every PATCH, so
/// after a crash (even kill -9) the offset any server reports is what the part holds, and the
/// client resumes from there. The record is inserted before the first byte, and removed before
/// the bytes, so a part without a record is a leftover that ``expire()`` sweeps.
///
/// `.uploads/` and not `.incoming/`: `feed roll verify --fix` deletes whatever is in `.incoming/`
/// as crash leftovers, and verify skips hidden folders of `recordings/`, so uploads in progress
/// survive a repair. They leave through ``expire()`` instead.
///
/// A complete upload joins the roll like `feed roll add --move`: the part gets a second name
/// `<id>.<ext>` (``MediaStore/alias(_:as:)``, a hard link) and that name is added (probe, hash, rename into `recordings/`, fsync, row), so
/// the roll's own crash ordering holds. Only then is the record marked `done` (or `failed` with
/// the reason, nothing added) and the part removed. A crash in between leaves a complete part
/// and an `uploading` record, which ``recover()`` finishes (at start and at every sweep): if the
/// row was already inserted the add sees the same bytes and the upload is `done` with that id;
/// if the file had been renamed in without its row, that orphan (the same inode) is removed
/// once the add has gone through again.
///
/// One request at a time per upload, across every server: PATCH, DELETE, completion and expiry
/// claim the upload in the catalog for ``claimLease`` seconds, renewed every third of it while
/// they work; a second request meanwhile gets ``UploadError/busy(id:)``. A request whose
/// renewal is refused (it stalled past its lease) stops writing at once.
public final class UploadStore: Sendable {
    /// The roll completed uploads join.
    public let roll: Roll
    /// The largest `Upload-Length` accepted, in bytes.
    public let maxSize: Int64
    /// Seconds after its last byte that an unfinished upload is removed, and after it finished
    /// that a finished one's status is forgotten.
    public let expiry: TimeInterval
    /// Seconds a request's claim on an upload lasts unless renewed: how long a server that
    /// died mid-request keeps the upload from the others.
    public let claimLease: Double
    /// Files of no upload (an interrupted removal, a stale temporary) older than this are swept.
    static let leftoverAge: TimeInterval = 60

    /// The time (tests move it).
    let clock: @Sendable () -> Date
    /// The writers of the PATCHes running in this process, by upload id: while one writes, the
    /// offset this store reports is its last sync's, never bytes a crash of the machine could lose.
    let writing = Locked<[String: UploadWriter]>([:])
    /// What runs once an upload completed (it is `done` or `failed`, its event queued): the
    /// server publishes the ones whose metadata says `publish`.
    let completion = Locked<(@Sendable (Upload, UploadMetadata) async -> Void)?>(nil)

    /// Sets what runs once each upload completed (``completion``), in this process.
    public func onCompletion(_ body: @escaping @Sendable (Upload, UploadMetadata) async -> Void) {
        completion.withLock { $0 = body }
    }

    /// Where the records are: the roll's catalog.
    var records: any UploadRecordStore { roll.catalog }
    /// Where the bytes are: the roll's media store.
    var media: any MediaStore { roll.media }

    /// A store for `roll`'s uploads. `clock` gives the time of records and expiry (tests move it);
    /// claims run on the catalog's clock.
    public init(roll: Roll, maxSize: Int64, expiry: TimeInterval, claimLease: Double = 10,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.roll = roll
        self.maxSize = maxSize
        self.expiry = expiry
        self.claimLease = claimLease
        self.clock = clock
    }

    // MARK: Creation, status, termination

    /// Starts an upload of `length` bytes. An empty one is `failed` at once (no video has no bytes).
    /// - Throws: ``UploadError/tooLarge(length:limit:)``, ``UploadError/invalidRequest(_:)`` for a
    ///   negative length, ``UploadError/roll(_:)`` when the folder or the record cannot be written.
    public func create(length: Int64, metadata: UploadMetadata, owner: String? = nil) async throws(UploadError) -> Upload {
        guard length >= 0 else { throw .invalidRequest("Upload-Length must be 0 or more, not \(length)") }
        guard length <= maxSize else { throw .tooLarge(length: length, limit: maxSize) }
        let now = clock().timeIntervalSince1970
        var record = UploadRecord(id: Self.newID(), length: length, metadata: metadata.header, created: now, phase: .uploading, owner: owner)
        if length == 0 {
            record.phase = .failed
            record.error = RollError.notMedia(path: metadata.filename ?? record.id, reason: "the upload is empty").description
            record.finished = now
        }
        do { try await records.insertUpload(record) } catch { throw .roll(error) }
        return upload(record)
    }

    /// The upload with this id.
    /// - Throws: ``UploadError/unknownUpload(_:)`` for an id that is malformed, unknown or expired.
    public func upload(id: String) async throws(UploadError) -> Upload {
        try await upload(id: id, claimed: false)
    }

    /// The upload with this id; one being worked on (claimed) counts as live unless `claimed`
    /// says the caller holds that claim itself (its writer, ended, synced every byte: the
    /// part's size is the offset).
    func upload(id: String, claimed: Bool) async throws(UploadError) -> Upload {
        guard Self.isValid(id), var record = try await record(id) else { throw .unknownUpload(id) }
        if claimed { record.synced = nil }
        let found = upload(record)
        guard !isExpired(found) || (record.held && !claimed) else { throw .unknownUpload(id) }
        return found
    }

    /// Ends an upload (tus termination): its record and bytes are removed. A finished upload's
    /// recording stays in the roll; only the upload's status is forgotten.
    /// - Throws: ``UploadError/unknownUpload(_:)``, ``UploadError/busy(id:)`` while another request works on it.
    public func delete(id: String) async throws(UploadError) {
        guard Self.isValid(id) else { throw .unknownUpload(id) }
        do {
            try await holding(id) { claim in
                _ = try await self.upload(id: id, claimed: true)
                try await self.remove(claim)
            }
        } catch { throw Self.uploadError(error) }
    }

    // MARK: Expiry

    /// Removes uploads past their ``Upload/expires`` (never one being written or finished) and
    /// files of no upload older than a minute. Cheap: one query and a `stat` per upload.
    /// - Returns: the ids removed.
    @discardableResult
    public func expire() async -> [String] {
        guard let all = try? await records.uploadRecords(phase: nil) else { return [] }
        var removed: [String] = []
        for record in all where !record.held && isExpired(upload(record)) {
            let gone = try? await holding(record.id) { claim in
                // Looked at again under the claim: a PATCH may have come in meanwhile.
                guard let fresh = try await self.record(record.id), self.isExpired(self.upload(fresh)) else { return false }
                try await self.remove(claim)
                return true
            }
            if gone == true { removed.append(record.id) }
        }
        // Records made after the query above have files younger than a minute.
        let known = Set(all.map(\.id)), now = clock()
        for key in media.keys(.upload) {
            let id = String(key.name.prefix(32))
            guard !known.contains(id), let modified = media.size(of: key)?.modified,
                  now.timeIntervalSince(modified) > Self.leftoverAge else { continue }
            try? media.remove(key)
        }
        return removed
    }

    // MARK: Claims

    /// Runs `body` holding upload `id`'s claim, renewed every third of ``claimLease`` while it
    /// runs, and lets go of it after.
    /// - Throws: ``UploadError/unknownUpload(_:)`` when there is no such upload,
    ///   ``UploadError/busy(id:)`` when another request holds it, or what `body` throws.
    func holding<T>(_ id: String, _ body: (UploadClaim) async throws -> T) async throws -> T {
        let token = UUID().uuidString, lease = claimLease, records = self.records
        guard try await records.claimUpload(id: id, token: token, for: lease) else {
            guard try await record(id) != nil else { throw UploadError.unknownUpload(id) }
            throw UploadError.busy(id: id)
        }
        let claim = UploadClaim(id: id, token: token)
        let renewer = Task {
            while true {
                do { try await Task.sleep(for: .seconds(lease / 3)) } catch { return }
                // A refused renewal, or none at all (the catalog unreachable): someone else may
                // take the upload once the lease runs out, so stop writing now.
                guard (try? await records.renewUpload(id: id, token: token, for: lease, synced: claim.synced)) == true else {
                    claim.lose()
                    return
                }
            }
        }
        let result: Result<T, any Error>
        do { result = .success(try await body(claim)) } catch { result = .failure(error) }
        renewer.cancel()
        try? await records.releaseUpload(id: id, token: token)
        return try result.get()
    }

    /// Any error of a claimed section as an ``UploadError``.
    static func uploadError(_ error: any Error) -> UploadError {
        switch error {
        case let error as UploadError: error
        case let error as RollError: .roll(error)
        default: .roll(.io(path: "uploads", reason: "\(error)"))
        }
    }

    // MARK: Files and records

    /// Where upload `id`'s bytes are, as a local file (tests look at it).
    func partURL(_ id: String) -> URL { media.localFile(for: .upload(id: id)) }

    /// The record of `id`, or nil.
    func record(_ id: String) async throws(UploadError) -> UploadRecord? {
        do { return try await records.uploadRecord(id: id) } catch { throw .roll(error) }
    }

    /// Removes a claimed upload's record first (it no longer exists), then its bytes (a crash
    /// between the two leaves bytes of no upload, which ``expire()`` sweeps).
    private func remove(_ claim: UploadClaim) async throws(UploadError) {
        let removed: Bool
        do { removed = try await records.deleteUpload(id: claim.id, token: claim.token) } catch { throw .roll(error) }
        guard removed else { throw .busy(id: claim.id) }
        do throws(RollError) {
            for key in media.keys(.upload) where key.name.hasPrefix(claim.id + ".") { try media.remove(key) }
        } catch { throw .roll(error) }
    }

    /// The upload a record describes, its offset read from the part's size.
    func upload(_ record: UploadRecord) -> Upload {
        let metadata = (try? UploadMetadata(header: record.metadata)) ?? UploadMetadata()
        let created = Date(timeIntervalSince1970: record.created)
        switch record.phase {
        case .uploading:
            let part = media.size(of: .upload(id: record.id))
            // A PATCH here: its last sync. One on another server: its last sync as its last
            // renewal told the catalog. Never bytes a crash of the machine could still lose.
            let synced = writing.withLock { $0[record.id]?.synced } ?? (record.held ? record.synced : nil) ?? .max
            let offset = min(part?.bytes ?? 0, record.length, synced)
            let last = max(created, part?.modified ?? created)
            return Upload(id: record.id, length: record.length, offset: offset, metadata: metadata, created: created,
                          expires: last.addingTimeInterval(expiry), state: offset == record.length ? .processing : .uploading,
                          owner: record.owner)
        case .done, .failed:
            let finished = Date(timeIntervalSince1970: record.finished ?? record.created)
            let state: Upload.State = record.phase == .done ? .done(recordingID: record.recordingID ?? 0) : .failed(reason: record.error ?? "failed")
            return Upload(id: record.id, length: record.length, offset: record.length, metadata: metadata, created: created,
                          expires: finished.addingTimeInterval(expiry), state: state, owner: record.owner)
        }
    }

    /// A complete upload waiting to be added never expires: ``recover()`` adds it first.
    private func isExpired(_ upload: Upload) -> Bool {
        upload.state != .processing && upload.expires <= clock()
    }

    // MARK: Ids

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
}
