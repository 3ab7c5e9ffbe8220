import Crypto
import FeedCore
import FeedTestSupport
import Foundation
import NIOCore
import Testing
@testable import FeedRemote

/// The media seam on the real object store `make test` starts: the put and removal orderings as
/// objects, each test under a prefix of its own and with a cache folder of its own.
@Suite("S3MediaStore")
struct S3MediaStoreTests {
    /// A store under a new prefix, a second one sharing it (another machine: its own cache), and
    /// a source file of known bytes.
    struct Fixture {
        let folder: ScratchFolder
        let store: S3MediaStore
        let other: S3MediaStore
        let bytes: [UInt8]
        let source: URL

        init?(size: Int = 70_000, partSize: Int = S3Client.minimumPartSize) throws {
            guard let client = S3ClientTests.client() else { return nil }
            folder = try ScratchFolder()
            let location = S3Location(bucket: client.bucket, prefix: "\(TestObjectStore.newPrefix())/roll")
            store = S3MediaStore(location: location, client: client, cache: folder.url("cache-a"), partSize: partSize)
            other = S3MediaStore(location: location, client: client, cache: folder.url("cache-b"), partSize: partSize)
            bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            source = folder.url("clip.mp4")
            try Data(bytes).write(to: source)
        }

        var sha256: String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
    }

    @Test("put uploads in parts, hashing on the way; the check sees the fingerprint before the key exists; another machine reads the bytes",
          arguments: [AddOptions.Mode.copy, .move])
    func put(mode: AddOptions.Mode) async throws {
        // 12 MB in 5 MiB parts: three parts, the last one short.
        guard let f = try Fixture(size: 12_000_000) else { return }
        let seen = Locked<[String]>([])
        let store = f.store
        let placed = try await f.store.put(.recording("a.mp4"), from: f.source, mode: mode) { sha, bytes throws(RollError) in
            #expect(!store.exists(.recording("a.mp4")), "nothing is at the key before the check")
            seen.withLock { $0.append(sha) }
        }
        #expect(placed.sha256 == f.sha256 && placed.bytes == 12_000_000 && seen.withLock { $0 } == [f.sha256])
        #expect(!placed.tookSource && placed.copiedForMove == (mode == .move) && FileManager.default.fileExists(atPath: f.source.path))
        #expect(f.other.keys(.recording) == [.recording("a.mp4")] && f.other.incomplete().isEmpty)
        let local = f.other.localFile(for: .recording("a.mp4"))
        #expect(Array(try Data(contentsOf: local)) == f.bytes)
        #expect(try f.other.fingerprint(of: .recording("a.mp4")).sha256 == f.sha256)
        #expect(f.other.size(of: .recording("a.mp4"))?.bytes == 12_000_000)
        try f.store.remove(.recording("a.mp4"))
        #expect(!f.other.exists(.recording("a.mp4")))
    }

    @Test("a check that refuses aborts the upload: no object, no multipart upload left, the source untouched")
    func refused() async throws {
        guard let f = try Fixture() else { return }
        await #expect(throws: RollError.duplicate(path: "clip.mp4", existingID: 9)) {
            try await f.store.put(.recording("a.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in
                throw RollError.duplicate(path: "clip.mp4", existingID: 9)
            }
        }
        #expect(f.store.keys(.recording).isEmpty && f.store.incomplete().isEmpty)
        #expect(Array(try Data(contentsOf: f.source)) == f.bytes)
    }

    @Test("retire hides the key and keeps the bytes in trash/ until purged; retiring nothing says so")
    func retire() async throws {
        guard let f = try Fixture() else { return }
        _ = try await f.store.put(.recording("a.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in }
        #expect(try f.store.retire(.recording("a.mp4"), as: "1-a.mp4"))
        #expect(!f.store.exists(.recording("a.mp4")) && f.other.retired() == ["1-a.mp4"])
        try f.store.purge(retired: "1-a.mp4")
        #expect(f.store.retired().isEmpty)
        #expect(try !f.store.retire(.recording("a.mp4"), as: "1-a.mp4"))
    }

    @Test("a set is published members first, playlists after, its marker last; a second maker loses; another machine downloads it whole")
    func publishSet() throws {
        guard let f = try Fixture() else { return }
        let key = MediaKey.ladder("3-abc-cmaf")
        let first = try f.store.stage(key), second = try f.store.stage(key)
        for (folder, text) in [(first, "first"), (second, "second")] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("v0"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("master.m3u8"))
            try Data("#EXTM3U \(text)".utf8).write(to: folder.appendingPathComponent("v0/index.m3u8"))
            try Data(repeating: 7, count: 1000).write(to: folder.appendingPathComponent("v0/seg_0.m4s"))
        }
        #expect(f.store.incomplete().count == 2 && !f.store.exists(key))
        #expect(try f.store.publish(key, from: first, replacing: false))
        #expect(try !f.store.publish(key, from: second, replacing: false))
        #expect(f.store.incomplete().isEmpty && f.other.keys(.ladder) == [key])
        let downloaded = f.other.localFile(for: key)
        #expect(String(decoding: try Data(contentsOf: downloaded.appendingPathComponent("master.m3u8")), as: UTF8.self) == "first")
        #expect(try Data(contentsOf: downloaded.appendingPathComponent("v0/seg_0.m4s")).count == 1000)
        #expect(S3MediaStore.files(under: f.store.staging).isEmpty)
        // The order members go up in: a playlist never before what it names.
        let order = ["master.m3u8", "v0/index.m3u8", "v0/seg_0.m4s", "manifest.mpd", "v0/init.mp4"]
            .sorted { S3MediaStore.publishOrder($0) < S3MediaStore.publishOrder($1) }
        #expect(order == ["v0/init.mp4", "v0/seg_0.m4s", "manifest.mpd", "master.m3u8", "v0/index.m3u8"])
        try f.store.remove(key)
        #expect(!f.other.exists(key) && f.other.keys(.ladder).isEmpty)
    }

    @Test("a poster is written whole; a file is replaced when asked and kept when not")
    func files() throws {
        guard let f = try Fixture() else { return }
        try f.store.write(Array("jpeg".utf8), at: .poster(id: 1, milliseconds: 500))
        #expect(String(decoding: try Data(contentsOf: f.other.localFile(for: .poster(id: 1, milliseconds: 500))), as: UTF8.self) == "jpeg")
        let key = MediaKey.fastStart("a.mp4")
        for (text, replacing, published) in [("one", false, true), ("two", true, true), ("three", false, false)] {
            let staged = try f.store.stage(key)
            try Data(text.utf8).write(to: staged)
            #expect(try f.store.publish(key, from: staged, replacing: replacing) == published)
        }
        #expect(String(decoding: try Data(contentsOf: f.other.localFile(for: key)), as: UTF8.self) == "two")
        #expect(f.store.keys(.fastStart) == [key] && f.store.keys(.poster) == [.poster(id: 1, milliseconds: 500)])
    }

    @Test("a put cut short leaves an open multipart upload, found as incomplete with its age and aborted by discarding it")
    func cutShort() async throws {
        guard let f = try Fixture() else { return }
        let objectKey = f.store.objectKey(.recording("b.mp4"))
        let id = try await f.store.client.createMultipartUpload(objectKey)
        _ = try await f.store.client.uploadPart(objectKey, uploadID: id, number: 1, body: ByteBuffer(bytes: f.bytes))
        let open = f.other.incomplete()
        #expect(open == ["multipart:\(id):\(objectKey)"])
        let age = try #require(f.other.lastChange(ofIncomplete: open[0]))
        #expect(abs(age.timeIntervalSinceNow) < 600)
        try f.other.discardIncomplete(open[0])
        #expect(f.store.incomplete().isEmpty && !f.store.exists(.recording("b.mp4")))
    }

    @Test("a tus upload: appends wait in an unlinked local file, synced as parts and a tail, resumed by another machine at the same offset, cut back to a request's start, finished into one object; removed, nothing is left")
    func upload() throws {
        // 12 MB through 5 MiB parts: two whole parts and a tail.
        guard let f = try Fixture(size: 12_000_000) else { return }
        let key = MediaKey.upload(id: "0123456789abcdef0123456789abcdef")
        let first = try f.store.append(to: key, at: 0)
        try f.bytes.prefix(4_000_000).withUnsafeBytes { try first.write($0, at: 0) }
        try first.sync()
        #expect(f.other.size(of: key)?.bytes == 4_000_000, "synced bytes count on every machine")
        try f.bytes[4_000_000..<7_000_000].withUnsafeBytes { try first.write($0, at: 4_000_000) }
        first.close()
        #expect(f.other.size(of: key)?.bytes == 4_000_000, "bytes never synced do not count")
        #expect(f.store.keys(.upload) == [key] && f.store.incomplete().isEmpty, "an upload in progress is not a leftover")

        // Another machine resumes: a request that overflows is cut back to where it began.
        let second = try f.other.append(to: key, at: 4_000_000)
        try f.bytes[4_000_000..<11_000_000].withUnsafeBytes { try second.write($0, at: 4_000_000) }
        // Unsynced bytes wait in a local file nobody can name, gone with the process.
        let spool = f.folder.url("cache-b").appendingPathComponent(".spool")
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
        #expect(Self.openFiles(under: spool) == ["11000000 (deleted)"], "the request's bytes are on disk, not in memory")
        try second.sync()
        #expect(Self.openFiles(under: spool) == ["\(11_000_000 - 2 * S3Client.minimumPartSize) (deleted)"],
                "a sync leaves the tail past the whole parts")
        #expect(f.store.size(of: key)?.bytes == 11_000_000)
        try second.truncate(to: 4_000_000)
        #expect(f.store.size(of: key)?.bytes == 4_000_000)
        #expect(throws: RollError.self) { try f.store.append(to: key, at: 5_000_000) }

        let third = try f.store.append(to: key, at: 4_000_000)
        try f.bytes[4_000_000...].withUnsafeBytes { try third.write($0, at: 4_000_000) }
        try third.sync()
        let named = try f.other.alias(key, as: "0123456789abcdef0123456789abcdef.mp4")
        #expect(Array(try Data(contentsOf: f.store.localFile(for: named))) == f.bytes)
        #expect(f.store.size(of: key)?.bytes == 12_000_000 && f.store.incomplete().isEmpty)
        second.close()
        #expect(Self.openFiles(under: spool).isEmpty)
        try f.store.remove(named)
        try f.store.remove(key)
        #expect(f.store.keys(.upload).isEmpty && f.store.incomplete().isEmpty && f.store.size(of: key) == nil)
    }

    /// This process's open files under `folder`: each as its size and what the kernel says of
    /// its name (a spool file is unlinked at once: `(deleted)`).
    static func openFiles(under folder: URL) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix(folder.path + "/"), let descriptor = Int32(fd) else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            return "\(info.st_size)" + (target.hasSuffix(" (deleted)") ? " (deleted)" : "")
        }
    }

    @Test("a store that goes away mid-upload: back within the retries, the put completes whole; gone for longer, it fails in words and what it left is found and aborted")
    func outage() async throws {
        // 12 MB in 5 MiB parts: the outage begins at the third request (the second part).
        guard let f = try Fixture(size: 12_000_000), let store = TestObjectStore.current else { return }
        let scratch = try ScratchFolder()
        func through(outage seconds: Double, attempts: Int) async throws -> (S3MediaStore, PortScript) {
            let proxy = try await PortScript("s3_fault_proxy.py", [store.endpoint, scratch.url("log-\(seconds)").path, "--outage", "3", String(seconds)])
            let client = try #require(S3ClientTests.client(endpoint: proxy.base, attempts: attempts))
            return (S3MediaStore(location: f.store.location, client: client, cache: scratch.url("cache-\(seconds)"), partSize: S3Client.minimumPartSize), proxy)
        }
        let (brief, proxy) = try await through(outage: 0.5, attempts: 8)
        let placed = try await brief.put(.recording("a.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in }
        #expect(placed.sha256 == f.sha256)
        #expect(try String(contentsOf: scratch.url("log-0.5"), encoding: .utf8).contains(" dropped"), "the outage happened")
        #expect(try f.other.fingerprint(of: .recording("a.mp4")).sha256 == f.sha256)
        proxy.stop()

        let (long, gone) = try await through(outage: 60, attempts: 3)
        do {
            _ = try await long.put(.recording("b.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in }
            Issue.record("a put through a store gone for a minute succeeded")
        } catch {
            #expect(error.kind == .unavailable && error.description.contains("after 3 attempts"), "\(error)")
        }
        gone.stop()
        #expect(!f.other.exists(.recording("b.mp4")))
        let left = f.other.incomplete()
        #expect(left.count == 1 && left[0].hasPrefix("multipart:"), "\(left)")
        for name in left { try f.other.discardIncomplete(name) }
        #expect(f.other.incomplete().isEmpty)
    }

    @Test("a wrong secret is the store's refusal in one line, with the kind the CLI exits 77 for")
    func refusal() throws {
        guard let store = TestObjectStore.current, let client = S3ClientTests.client(secretKey: "wrong-secret-key-0000") else { _ = S3ClientTests.client(); return }
        let folder = try ScratchFolder()
        let media = S3MediaStore(location: S3Location(bucket: store.bucket, prefix: TestObjectStore.newPrefix()), client: client, cache: folder.url("c"))
        do {
            try media.write([1], at: .poster(id: 1, milliseconds: 0))
            Issue.record("a wrong secret wrote")
        } catch {
            #expect(error.kind == .unauthorized && error.description.contains("SignatureDoesNotMatch") && !error.description.contains("wrong-secret"))
        }
    }
}
