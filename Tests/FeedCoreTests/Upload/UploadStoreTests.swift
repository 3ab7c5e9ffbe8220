import Crypto
import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("UploadStore")
struct UploadStoreTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    /// A roll over a catalog, a store over it with a movable clock, a second server's store over
    /// the same catalog and media folder, and a clip's bytes.
    struct Fixture {
        let folder: ScratchFolder
        let roll: Roll
        let store: UploadStore
        /// Another server sharing the catalog and the media folder.
        let other: UploadStore
        let clock: TestClock
        /// The catalog's clock, which claims run on, when the test drives it (nil: the real one).
        let catalogClock: ManualWallClock?
        let clip: [UInt8]

        /// `claimLease` is long by default: the renewals are tasks, and in the whole suite (hundreds
        /// of tests waiting on processes) one may wait its turn on the shared threads for longer
        /// than the server's 10 s, which would lose the claim mid-test (seen under the sanitizers).
        /// Tests of losing a claim pass a short one, or move `catalogClock` past it.
        init(_ factory: CatalogFactory = .sqlite, expiry: TimeInterval = 3600, maxSize: Int64 = 1 << 30, claimLease: Double = 600,
             catalogClock: ManualWallClock? = nil,
             records wrap: @Sendable (any UploadRecordStore) -> any UploadRecordStore = { $0 }) async throws {
            folder = try ScratchFolder()
            self.catalogClock = catalogClock
            let (a, b) = try await factory.makeClockedPair(folder, catalogClock)
            let paths = RollPaths(home: folder.url("home"))
            roll = try Roll(paths: paths, catalog: ComposedCatalog(a, uploads: wrap(a)), prober: MediaRecordingProber())
            let second = try Roll(paths: paths, catalog: b, prober: MediaRecordingProber())
            let clock = TestClock()
            self.clock = clock
            store = UploadStore(roll: roll, maxSize: maxSize, expiry: expiry, claimLease: claimLease, clock: { clock.now.withLock { $0 } })
            other = UploadStore(roll: second, maxSize: maxSize, expiry: expiry, claimLease: claimLease, clock: { clock.now.withLock { $0 } })
            let url = try RollTestSupport.clip(folder.url("clip.mp4"), seed: 7, frames: 20)
            clip = Array(try Data(contentsOf: url))
        }

        func metadata(_ filename: String = "clip.mp4", title: String? = nil) throws -> UploadMetadata {
            var header = "filename \(Data(filename.utf8).base64EncodedString())"
            if let title { header += ",title \(Data(title.utf8).base64EncodedString())" }
            return try UploadMetadata(header: header)
        }

        /// PATCHes `bytes` at `offset` in pieces of `piece` bytes.
        @discardableResult
        func patch(_ id: String, _ bytes: ArraySlice<UInt8>, at offset: Int64, piece: Int = 1000, on server: UploadStore? = nil) async throws -> Upload {
            try await (server ?? store).patch(id: id, offset: offset, declaredLength: Int64(bytes.count)) { writer in
                var start = bytes.startIndex
                while start < bytes.endIndex {
                    let end = min(start + piece, bytes.endIndex)
                    try writer.append(Array(bytes[start..<end]))
                    start = end
                }
            }
        }

        /// Names in `.uploads/`.
        var files: [String] { RollTestSupport.contents(store.roll.paths.uploads) }
    }

    @Test("create: a 32-hex id, offset 0, uploading, expiring after the expiry; a record in the catalog, no file yet",
          arguments: CatalogFactory.all)
    func create(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory)
        let upload = try await f.store.create(length: 100, metadata: try f.metadata("a.mov", title: "Hi"))
        #expect(UploadStore.isValid(upload.id))
        #expect(upload.offset == 0 && upload.length == 100 && upload.state == .uploading)
        #expect(upload.expires == upload.created.addingTimeInterval(3600))
        #expect(upload.metadata.filename == "a.mov" && upload.metadata.title == "Hi")
        #expect(f.files.isEmpty)
        #expect(try await f.store.upload(id: upload.id) == upload)
        #expect(try await f.other.upload(id: upload.id) == upload)
    }

    @Test("a clip in pieces over two PATCHes, one to each server, lands in the roll once with its bytes and title; the upload's files go",
          arguments: CatalogFactory.all)
    func complete(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory)
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata(title: "Beach"))
        let half = f.clip.count / 2
        let first = try await f.patch(upload.id, f.clip[..<half], at: 0)
        #expect(first.offset == Int64(half) && first.state == .uploading)
        #expect(try await f.other.upload(id: upload.id).offset == Int64(half))
        let last = try await f.patch(upload.id, f.clip[half...], at: Int64(half), on: f.other)
        guard case let .done(id) = last.state else { Issue.record("not done: \(last.state)"); return }
        let recording = try await f.roll.recording(id: id)
        #expect(recording.sha256 == SHA256.hex(f.clip) && recording.title == "Beach")
        #expect(Array(try Data(contentsOf: f.roll.url(of: recording))) == f.clip)
        #expect(f.files.isEmpty)
        #expect(try await f.roll.verify().isClean)
        #expect(try await f.store.upload(id: upload.id).state == .done(recordingID: id))
    }

    @Test("a wrong offset is refused with the right one; a second writer meanwhile, on either server, is busy",
          arguments: CatalogFactory.all)
    func conflicts(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory)
        let upload = try await f.store.create(length: 10, metadata: UploadMetadata())
        await #expect(throws: UploadError.offsetMismatch(id: upload.id, expected: 0, given: 4)) {
            try await f.patch(upload.id, [1, 2][...], at: 4)
        }
        let store = f.store, other = f.other
        _ = try await store.patch(id: upload.id, offset: 0, declaredLength: nil) { writer in
            try writer.append([1, 2, 3])
            for server in [store, other] {
                await #expect(throws: UploadError.busy(id: upload.id)) {
                    try await server.patch(id: upload.id, offset: 0, declaredLength: nil) { try $0.append([9]) }
                }
                await #expect(throws: UploadError.busy(id: upload.id)) { try await server.delete(id: upload.id) }
            }
            // The 3 bytes are in the part but not yet synced: HEAD elsewhere says 0 meanwhile.
            #expect(try await other.upload(id: upload.id).offset == 0, "HEAD on the other server while it is written")
        }
        #expect(try await f.other.upload(id: upload.id).offset == 3)
        try await f.patch(upload.id, [4][...], at: 3, on: f.other)
        #expect(try await f.store.upload(id: upload.id).offset == 4)
    }

    @Test("bytes past Upload-Length: refused up front by Content-Length, or mid-stream with this PATCH's bytes dropped")
    func overflow() async throws {
        let f = try await Fixture()
        let upload = try await f.store.create(length: 10, metadata: UploadMetadata())
        try await f.patch(upload.id, [1, 2, 3, 4][...], at: 0)
        await #expect(throws: UploadError.exceedsLength(id: upload.id, length: 10, offset: 4)) {
            try await f.store.patch(id: upload.id, offset: 4, declaredLength: 7) { _ in }
        }
        await #expect(throws: UploadError.exceedsLength(id: upload.id, length: 10, offset: 4)) {
            try await f.store.patch(id: upload.id, offset: 4, declaredLength: nil) { writer in
                try writer.append([5, 6, 7])
                try writer.append([8, 9, 10, 11])
            }
        }
        #expect(try await f.store.upload(id: upload.id).offset == 4)
        #expect(Array(try Data(contentsOf: f.store.partURL(upload.id))) == [1, 2, 3, 4])
    }

    @Test("a client gone mid-PATCH keeps what arrived: the next HEAD resumes from there")
    func interrupted() async throws {
        struct Gone: Error {}
        let f = try await Fixture()
        let upload = try await f.store.create(length: 10, metadata: UploadMetadata())
        await #expect(throws: Gone.self) {
            try await f.store.patch(id: upload.id, offset: 0, declaredLength: 10) { writer in
                try writer.append([1, 2, 3, 4, 5, 6])
                throw Gone()
            }
        }
        #expect(try await f.store.upload(id: upload.id).offset == 6)
    }

    @Test("while a PATCH writes, the offset reported is its last sync's: bytes written but not yet fsync'd are never announced")
    func offsetIsDurable() async throws {
        let f = try await Fixture()
        let length = Int64(UploadWriter.syncInterval) + 4_000
        let upload = try await f.store.create(length: length, metadata: UploadMetadata())
        let seen = Locked<[Int64]>([])
        let store = f.store
        try await f.store.patch(id: upload.id, offset: 0, declaredLength: length) { writer in
            try writer.append([UInt8](repeating: 1, count: 1_000))
            let early = try await store.upload(id: upload.id).offset
            try writer.append([UInt8](repeating: 2, count: Int(UploadWriter.syncInterval)))
            let synced = try await store.upload(id: upload.id).offset
            try writer.append([UInt8](repeating: 3, count: 3_000))
            let late = try await store.upload(id: upload.id).offset
            seen.withLock { $0 = [early, synced, late] }
        }
        #expect(seen.withLock { $0 } == [0, UploadWriter.syncInterval + 1_000, UploadWriter.syncInterval + 1_000],
                "the part holds more each time; the offset moves only at a sync")
        #expect(try await f.store.upload(id: upload.id).offset == length, "every byte counts once the PATCH ended")
    }

    @Test("""
    while a PATCH writes on one server, another server's offset is the writer's last sync as its \
    last renewal told the catalog: never the part's size, which holds bytes not yet fsync'd
    """, arguments: CatalogFactory.all)
    func offsetIsDurableElsewhere(factory: CatalogFactory) async throws {
        // Renewals every 2 s: the synced offset reaches the catalog within one. The catalog's
        // clock stands still, so a renewal a loaded machine makes late never loses the claim.
        let f = try await Fixture(factory, claimLease: 6, catalogClock: ManualWallClock())
        let length = Int64(UploadWriter.syncInterval) + 4_000
        let upload = try await f.store.create(length: length, metadata: UploadMetadata())
        let seen = Locked<[Int64]>([])
        let other = f.other
        let part = f.store.partURL(upload.id)
        let size = { ((try? FileManager.default.attributesOfItem(atPath: part.path))?[.size] as? Int64) ?? 0 }
        try await f.store.patch(id: upload.id, offset: 0, declaredLength: length) { writer in
            try writer.append([UInt8](repeating: 1, count: 1_000))
            let early = try await other.upload(id: upload.id).offset
            try writer.append([UInt8](repeating: 2, count: Int(UploadWriter.syncInterval)))
            let synced = UploadWriter.syncInterval + 1_000
            let renewed = try await waitUntil(timeout: 30, every: 0.05) { try await other.upload(id: upload.id).offset == synced }
            try writer.append([UInt8](repeating: 3, count: 3_000))
            let late = try await other.upload(id: upload.id).offset
            seen.withLock { $0 = [early, renewed ? synced : -1, late, size()] }
        }
        let synced = UploadWriter.syncInterval + 1_000
        #expect(seen.withLock { $0 } == [0, synced, synced, length], "the other server's offsets, then the part's size")
        #expect(try await f.other.upload(id: upload.id).offset == length, "every byte counts once the PATCH ended")
        #expect(try await f.roll.catalog.uploadRecord(id: upload.id)?.synced == nil, "the release forgets it")
    }

    @Test("an MP4 uploaded as x.webm (or with no name) is stored as .mp4: the bytes name the container, not the client")
    func namedByBytes() async throws {
        let f = try await Fixture()
        for (n, filename) in ["x.webm", "noname"].enumerated() {
            var clip = f.clip
            clip[clip.count - 1] ^= UInt8(n + 1)  // not a duplicate of the one before
            let upload = try await f.store.create(length: Int64(clip.count), metadata: try f.metadata(filename))
            guard case let .done(id) = try await f.patch(upload.id, clip[...], at: 0).state else { Issue.record("\(filename): not done"); continue }
            let recording = try await f.roll.recording(id: id)
            #expect(recording.fileName.hasSuffix(".mp4"), "\(filename): stored as \(recording.fileName)")
        }
    }

    @Test("a file that is not a video: failed with the reason naming it, nothing added, its bytes removed")
    func notMedia() async throws {
        let f = try await Fixture()
        let text = Array("just some words, not a video\n".utf8)
        let upload = try await f.store.create(length: Int64(text.count), metadata: try f.metadata("notes.txt"))
        let done = try await f.patch(upload.id, text[...], at: 0)
        guard case let .failed(reason) = done.state else { Issue.record("not failed: \(done.state)"); return }
        #expect(reason.hasPrefix("notes.txt: not a video file") && reason.hasSuffix("nothing was added"), "\(reason)")
        #expect(try await f.roll.count() == 0)
        #expect(f.files.isEmpty)
        #expect(RollTestSupport.storedFiles(f.roll).isEmpty)
    }

    @Test("bytes already in the roll: done, pointing at that recording, nothing added twice")
    func duplicate() async throws {
        let f = try await Fixture()
        let existing = try #require(try await f.roll.add([f.folder.path("clip.mp4")]).first)
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata())
        #expect(try await f.patch(upload.id, f.clip[...], at: 0).state == .done(recordingID: existing.id))
        #expect(try await f.roll.count() == 1)
        #expect(RollTestSupport.storedFiles(f.roll).count == 1)
    }

    @Test("an empty upload fails at once; an Upload-Length over the limit is refused")
    func limits() async throws {
        let f = try await Fixture(maxSize: 1000)
        let empty = try await f.store.create(length: 0, metadata: try f.metadata("e.mp4"))
        #expect(empty.state == .failed(reason: "e.mp4: not a video file (the upload is empty); nothing was added"))
        await #expect(throws: UploadError.tooLarge(length: 1001, limit: 1000)) { try await f.store.create(length: 1001, metadata: UploadMetadata()) }
        await #expect(throws: UploadError.self) { try await f.store.create(length: -1, metadata: UploadMetadata()) }
    }

    @Test("ids are checked before any file is touched", arguments: ["", "..", "../../etc/passwd", "%2e%2e", "0123456789abcdef0123456789ABCDEF",
                                                                     "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
                                                                     "0123456789abcdef0123456789abcde\u{0}", "0123456789abcdef/123456789abcdef"])
    func malformedIDs(id: String) async throws {
        let f = try await Fixture()
        await #expect(throws: UploadError.unknownUpload(id)) { try await f.store.upload(id: id) }
        await #expect(throws: UploadError.unknownUpload(id)) { try await f.store.delete(id: id) }
        await #expect(throws: UploadError.unknownUpload(id)) { try await f.patch(id, [1][...], at: 0) }
        #expect(!UploadStore.isValid(id))
    }

    @Test("delete: the upload is gone (404 after, on both servers), files and all", arguments: CatalogFactory.all)
    func delete(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory)
        let upload = try await f.store.create(length: 10, metadata: UploadMetadata())
        try await f.patch(upload.id, [1, 2, 3][...], at: 0)
        #expect(f.files == ["\(upload.id).part"])
        try await f.other.delete(id: upload.id)
        await #expect(throws: UploadError.unknownUpload(upload.id)) { try await f.store.upload(id: upload.id) }
        await #expect(throws: UploadError.unknownUpload(upload.id)) { try await f.store.delete(id: upload.id) }
        await #expect(throws: UploadError.unknownUpload(upload.id)) { try await f.patch(upload.id, [4][...], at: 3) }
        #expect(f.files.isEmpty)
    }

    @Test("expiry counts from the last byte; expired uploads read as unknown and expire() removes their records and files",
          arguments: CatalogFactory.all)
    func expiry(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory, expiry: 100)
        let old = try await f.store.create(length: 10, metadata: UploadMetadata())
        try await f.patch(old.id, [1][...], at: 0)
        f.clock.advance(60)
        let young = try await f.store.create(length: 10, metadata: UploadMetadata())
        try await f.patch(young.id, [1][...], at: 0)
        f.clock.advance(60)
        await #expect(throws: UploadError.unknownUpload(old.id)) { try await f.store.upload(id: old.id) }
        await #expect(throws: UploadError.unknownUpload(old.id)) { try await f.patch(old.id, [2][...], at: 1) }
        #expect(try await f.store.upload(id: young.id).state == .uploading)
        #expect(await f.other.expire() == [old.id])
        #expect(f.files == ["\(young.id).part"])
        #expect(try await f.roll.catalog.uploadRecords(phase: nil).map(\.id) == [young.id])
    }

    @Test("after a crash with every byte in but nothing added, recover() (on another server) adds it", arguments: CatalogFactory.all)
    func recoverComplete(factory: CatalogFactory) async throws {
        let f = try await Fixture(factory)
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata())
        try FileManager.default.createDirectory(at: f.store.roll.paths.uploads, withIntermediateDirectories: true)
        try Data(f.clip).write(to: f.store.partURL(upload.id))
        #expect(try await f.store.upload(id: upload.id).state == .processing)
        let recovered = try #require(await f.other.recover().first)
        guard case let .done(id) = recovered.state else { Issue.record("not done: \(recovered.state)"); return }
        #expect(try await f.roll.recording(id: id).sha256 == SHA256.hex(f.clip))
        #expect(try await f.roll.verify().isClean)
        #expect(try await f.store.upload(id: upload.id).state == .done(recordingID: id))
        #expect(await f.store.recover().isEmpty, "nothing left to recover")
    }

    @Test("a crash after the roll's rename but before its row: recovery adds it once and removes the orphan")
    func recoverOrphan() async throws {
        let f = try await Fixture()
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata())
        let part = f.store.partURL(upload.id)
        try FileManager.default.createDirectory(at: f.store.roll.paths.uploads, withIntermediateDirectories: true)
        try Data(f.clip).write(to: part)
        #expect(link(part.path, f.roll.paths.file(named: "20260101-000000-0000000000000000.mp4").path) == 0)
        #expect(try await !f.roll.verify().isClean)
        let recovered = try #require(await f.store.recover().first)
        guard case .done = recovered.state else { Issue.record("not done: \(recovered.state)"); return }
        #expect(try await f.roll.count() == 1)
        #expect(RollTestSupport.storedFiles(f.roll).count == 1)
        #expect(try await f.roll.verify().isClean)
        #expect(f.files.isEmpty)
    }

    @Test("a crash after the row but before the upload's state: recovery finds the recording, adds nothing")
    func recoverAdded() async throws {
        let f = try await Fixture()
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata())
        let part = f.store.partURL(upload.id)
        try FileManager.default.createDirectory(at: f.store.roll.paths.uploads, withIntermediateDirectories: true)
        try Data(f.clip).write(to: part)
        let staged = f.store.roll.paths.uploads.appendingPathComponent("\(upload.id).mp4")
        #expect(link(part.path, staged.path) == 0)
        let added = try #require(try await f.roll.add([staged.path], options: AddOptions(mode: .move)).first)
        let recovered = try #require(await f.store.recover().first)
        #expect(recovered.state == .done(recordingID: added.id))
        #expect(try await f.roll.count() == 1)
        #expect(try await f.roll.verify().isClean)
    }

    @Test("a PATCH whose claim is lost (its renewal refused) stops writing at once and answers busy")
    func lostClaim() async throws {
        let refuse = RefusingRenewals.Switch()
        // Renewals every 0.1 s, on a catalog clock that stands still: the claim is lost only
        // when the switch refuses a renewal, never because a loaded machine made one late.
        let f = try await Fixture(claimLease: 0.3, catalogClock: ManualWallClock(), records: { RefusingRenewals(base: $0, refuse: refuse) })
        let upload = try await f.store.create(length: 1000, metadata: UploadMetadata())
        let appended = Locked(0)
        await #expect(throws: UploadError.busy(id: upload.id)) {
            try await f.store.patch(id: upload.id, offset: 0, declaredLength: nil) { writer in
                try writer.append([1, 2, 3])
                refuse.set()
                // Keeps writing until the writer is revoked (the next renewal, 0.1 s on).
                for _ in 0..<500 {
                    try writer.append([4])
                    appended.withLock { $0 += 1 }
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
        }
        #expect(appended.withLock { $0 } < 500, "the writer was revoked")
        let offset = try await f.store.upload(id: upload.id).offset
        #expect(offset == 3 + Int64(appended.withLock { $0 }), "what was written before the loss stays, for the client to resume")
    }

    @Test("a server frozen past its claim writes its late piece where it was sent for: another server finished the upload meanwhile, and its recording keeps the clip's bytes")
    func frozenWriter() async throws {
        let freeze = RefusingRenewals.Switch()
        // Claims run on the catalog's clock, which the test moves past the lease once this
        // server has frozen.
        let catalogClock = ManualWallClock()
        let f = try await Fixture(catalogClock: catalogClock, records: { RefusingRenewals(base: $0, refuse: freeze, hang: true) })
        let upload = try await f.store.create(length: Int64(f.clip.count), metadata: try f.metadata())
        let half = f.clip.count / 2, late = half..<(half + (f.clip.count - half) / 2)
        let resume = RefusingRenewals.Switch()
        let stale = Task {
            try await f.store.patch(id: upload.id, offset: 0, declaredLength: nil) { writer in
                try writer.append(Array(f.clip[..<half]))
                // Frozen (its renewals too) while it holds the next piece.
                freeze.set()
                while !resume.isOn { try await Task.sleep(for: .milliseconds(10)) }
                try writer.append(Array(f.clip[late]))
            }
        }
        #expect(try await waitUntil(timeout: 20, every: 0.01) { freeze.isOn }, "the first PATCH never froze")
        catalogClock.advance(by: 601)
        // The claim has run out; the client resumes on the other server from the offset HEAD reports.
        var finished: Upload?
        _ = try await waitUntil(timeout: 20, every: 0.02) {
            do {
                let offset = try await f.other.upload(id: upload.id).offset
                if offset == Int64(half) { finished = try await f.patch(upload.id, f.clip[half...], at: offset, on: f.other) }
            } catch UploadError.busy { }
            return finished != nil
        }
        guard case .done(let recordingID) = try #require(finished).state else {
            Issue.record("not done: \(String(describing: finished))")
            return
        }
        resume.set()
        let answer = try await stale.value
        #expect(answer.state == .done(recordingID: recordingID), "the late PATCH answers what the catalog holds")
        let recording = try await f.roll.recording(id: recordingID)
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.roll.path(of: recording))) == Data(f.clip),
                "the late bytes landed on the same bytes, at their offsets")
        #expect(try await f.roll.verify().isClean)
        #expect(try await f.roll.count() == 1)
    }

    @Test("a record kept as <id>.json by an earlier feed moves into the catalog at recovery, bytes and all")
    func importsFileRecords() async throws {
        let f = try await Fixture()
        let id = String(repeating: "ab", count: 16)
        try FileManager.default.createDirectory(at: f.store.roll.paths.uploads, withIntermediateDirectories: true)
        let json = #"{"created":1800000000,"id":"\#(id)","length":10,"metadata":"","state":"uploading"}"#
        try Data(json.utf8).write(to: f.store.roll.paths.uploads.appendingPathComponent("\(id).json"))
        try Data([1, 2, 3, 4]).write(to: f.store.partURL(id))
        #expect(await f.store.recover().isEmpty)
        let upload = try await f.other.upload(id: id)
        #expect(upload.offset == 4 && upload.length == 10 && upload.state == .uploading)
        #expect(f.files == ["\(id).part"])
        try await f.patch(id, [5, 6][...], at: 4)
        #expect(try await f.store.upload(id: id).offset == 6)
    }
}

/// An upload record store whose renewals stall once switched, as a server that stalled past
/// its claim's lease sees them: refused (it paused and came back), or, with `hang`, never
/// answered until the renewing task is cancelled (it is frozen, renewals and all).
struct RefusingRenewals: UploadRecordStore {
    final class Switch: Sendable {
        private let on = Locked(false)
        func set() { on.withLock { $0 = true } }
        var isOn: Bool { on.withLock { $0 } }
    }

    let base: any UploadRecordStore
    let refuse: Switch
    var hang = false

    func insertUpload(_ record: UploadRecord) async throws(RollError) { try await base.insertUpload(record) }
    func uploadRecord(id: String) async throws(RollError) -> UploadRecord? { try await base.uploadRecord(id: id) }
    func uploadRecords(phase: UploadRecord.Phase?) async throws(RollError) -> [UploadRecord] { try await base.uploadRecords(phase: phase) }
    func claimUpload(id: String, token: String, for seconds: Double) async throws(RollError) -> Bool {
        try await base.claimUpload(id: id, token: token, for: seconds)
    }
    func renewUpload(id: String, token: String, for seconds: Double, synced: Int64?) async throws(RollError) -> Bool {
        while hang && refuse.isOn {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return false }
        }
        return refuse.isOn ? false : try await base.renewUpload(id: id, token: token, for: seconds, synced: synced)
    }
    func releaseUpload(id: String, token: String) async throws(RollError) { try await base.releaseUpload(id: id, token: token) }
    func finishUpload(_ record: UploadRecord, token: String) async throws(RollError) -> Bool { try await base.finishUpload(record, token: token) }
    func deleteUpload(id: String, token: String) async throws(RollError) -> Bool { try await base.deleteUpload(id: id, token: token) }
}
