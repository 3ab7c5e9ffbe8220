import Crypto
import FeedTestSupport
import Foundation
import Testing
@testable import FeedCore

/// The media seam's folder implementation: the put and removal orderings as files.
@Suite("FolderMediaStore")
struct FolderMediaStoreTests {
    /// A store over a fresh roll's folders, and a source file of known bytes.
    struct Fixture {
        let folder: ScratchFolder
        let paths: RollPaths
        let store: FolderMediaStore
        let bytes: [UInt8]
        let source: URL

        init() throws {
            folder = try ScratchFolder()
            paths = RollPaths(home: folder.url("home"))
            for dir in [paths.recordings, paths.incoming, paths.trash] {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            }
            store = FolderMediaStore(paths: paths)
            bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            source = folder.url("clip.mp4")
            try Data(bytes).write(to: source)
        }

        var sha256: String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
        func stored(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: paths.file(named: name))) }
    }

    @Test("copy, link and move each publish the bytes under the key with their fingerprint; copy and link keep the source", arguments: [AddOptions.Mode.copy, .link, .move])
    func put(mode: AddOptions.Mode) async throws {
        let f = try Fixture()
        let seen = Locked<[(String, Int64)]>([])
        let placed = try await f.store.put(.recording("a.mp4"), from: f.source, mode: mode) { sha, bytes throws(RollError) in
            seen.withLock { $0.append((sha, bytes)) }
        }
        #expect(placed.sha256 == f.sha256 && placed.bytes == Int64(f.bytes.count))
        #expect(seen.withLock { $0.map(\.0) } == [f.sha256], "check sees the fingerprint once, before publishing")
        #expect(try f.stored("a.mp4") == f.bytes)
        #expect(FileManager.default.fileExists(atPath: f.source.path) == (mode != .move))
        #expect(placed.tookSource == (mode == .move) && !placed.copiedForMove)
        #expect(f.store.keys(.recording) == [.recording("a.mp4")] && f.store.incomplete().isEmpty)
    }

    @Test("a check that refuses leaves nothing published or staged, and the source where it was", arguments: [AddOptions.Mode.copy, .link, .move])
    func refused(mode: AddOptions.Mode) async throws {
        let f = try Fixture()
        await #expect(throws: RollError.duplicate(path: "clip.mp4", existingID: 9)) {
            try await f.store.put(.recording("a.mp4"), from: f.source, mode: mode) { _, _ throws(RollError) in
                throw RollError.duplicate(path: "clip.mp4", existingID: 9)
            }
        }
        #expect(f.store.keys(.recording).isEmpty && f.store.incomplete().isEmpty)
        #expect(Array(try Data(contentsOf: f.source)) == f.bytes)
    }

    @Test("taking a move back returns the file to its source; a copy's placement is removed")
    func takeBack() async throws {
        let f = try Fixture()
        let moved = try await f.store.put(.recording("m.mp4"), from: f.source, mode: .move) { _, _ throws(RollError) in }
        try f.store.takeBack(moved, to: f.source)
        #expect(!f.store.exists(.recording("m.mp4")))
        #expect(Array(try Data(contentsOf: f.source)) == f.bytes)
        let copied = try await f.store.put(.recording("c.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in }
        try f.store.takeBack(copied, to: f.source)
        #expect(!f.store.exists(.recording("c.mp4")) && FileManager.default.fileExists(atPath: f.source.path))
    }

    @Test("retire hides the key and keeps the bytes until purged; retiring nothing says so")
    func retireThenPurge() async throws {
        let f = try Fixture()
        _ = try await f.store.put(.recording("a.mp4"), from: f.source, mode: .copy) { _, _ throws(RollError) in }
        #expect(try f.store.retire(.recording("a.mp4"), as: "1-a.mp4"))
        #expect(!f.store.exists(.recording("a.mp4")) && f.store.retired() == ["1-a.mp4"])
        try f.store.purge(retired: "1-a.mp4")
        #expect(f.store.retired().isEmpty)
        #expect(try !f.store.retire(.recording("a.mp4"), as: "1-a.mp4"))
    }

    @Test("a key is never a path: a hostile name stays inside recordings/")
    func hostileKey() throws {
        let f = try Fixture()
        let file = f.store.localFile(for: .recording("../../etc/passwd"))
        #expect(file.deletingLastPathComponent().standardizedFileURL == f.paths.recordings.standardizedFileURL)
    }

    /// Makes a two-file set (a ladder's shape) at `staged` holding `text`.
    private func makeSet(at staged: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: staged.appendingPathComponent("360p"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: staged.appendingPathComponent("360p/index.m3u8"))
        try Data(text.utf8).write(to: staged.appendingPathComponent("master.m3u8"))
    }

    @Test("a staged set is published whole; a second maker loses to the first and leaves nothing staged")
    func publishSet() throws {
        let f = try Fixture()
        let key = MediaKey.ladder("3-abc-cmaf")
        let first = try f.store.stage(key), second = try f.store.stage(key)
        #expect(first != second && !f.store.exists(key))
        try makeSet(at: first, "first")
        try makeSet(at: second, "second")
        #expect(f.store.incomplete().count == 2, "staged work is incomplete until published")
        #expect(try f.store.publish(key, from: first, replacing: false))
        #expect(try !f.store.publish(key, from: second, replacing: false))
        let master = f.store.localFile(for: key).appendingPathComponent("master.m3u8")
        #expect(String(decoding: try Data(contentsOf: master), as: UTF8.self) == "first")
        #expect(f.store.incomplete().isEmpty && f.store.keys(.ladder) == [key])
        try f.store.remove(key)
        #expect(!f.store.exists(key) && f.store.keys(.ladder).isEmpty)
        try f.store.remove(key)
    }

    @Test("a staged file replaces the one published when asked to, and loses to it when not")
    func publishFile() throws {
        let f = try Fixture()
        let key = MediaKey.fastStart("a.mp4")
        for (text, replacing, published) in [("one", false, true), ("two", true, true), ("three", false, false)] {
            let staged = try f.store.stage(key)
            try Data(text.utf8).write(to: staged)
            #expect(try f.store.publish(key, from: staged, replacing: replacing) == published)
        }
        #expect(String(decoding: try Data(contentsOf: f.store.localFile(for: key)), as: UTF8.self) == "two")
        #expect(f.store.incomplete().isEmpty && f.store.keys(.fastStart) == [key])
    }

    @Test("posters and storyboards share a folder but not their keys; staged work that dies is found and discarded with its age")
    func kindsAndLeftovers() throws {
        let f = try Fixture()
        try f.store.write([0xFF, 0xD8], at: .poster(id: 7, milliseconds: 500))
        let board = try f.store.stage(.storyboard(id: 7))
        try makeSet(at: board, "cues")
        try f.store.publish(.storyboard(id: 7), from: board, replacing: false)
        #expect(f.store.keys(.poster) == [.poster(id: 7, milliseconds: 500)] && f.store.keys(.storyboard) == [.storyboard(id: 7)])
        let dead = try f.store.stage(.ladder("9-x-cmaf"))
        try makeSet(at: dead, "half")
        let name = dead.lastPathComponent
        #expect(f.store.incomplete() == [name])
        let changed = try #require(f.store.lastChange(ofIncomplete: name))
        #expect(abs(changed.timeIntervalSinceNow) < 60)
        try f.store.discardIncomplete(name)
        #expect(f.store.incomplete().isEmpty && f.store.lastChange(ofIncomplete: name) == nil)
    }

    @Test("an upload grows by appends, its size counts what was written, an alias shares its bytes, and a recording moved in from it is found by its bytes")
    func uploads() async throws {
        let f = try Fixture()
        let part = MediaKey.upload(id: "0123456789abcdef0123456789abcdef")
        #expect(f.store.size(of: part) == nil && f.store.keys(.upload).isEmpty)
        let first = try f.store.append(to: part, at: 0)
        try f.bytes[..<1000].withUnsafeBytes { try first.write($0, at: 0) }
        try first.sync()
        first.close()
        #expect(f.store.size(of: part)?.bytes == 1000)
        let second = try f.store.append(to: part, at: 1000)
        try f.bytes[1000...].withUnsafeBytes { try second.write($0, at: 1000) }
        try second.write(UnsafeRawBufferPointer(start: nil, count: 0), at: Int64(f.bytes.count))
        try second.truncate(to: Int64(f.bytes.count))
        try second.sync()
        second.close()
        #expect(Array(try Data(contentsOf: f.store.localFile(for: part))) == f.bytes)

        let named = try f.store.alias(part, as: "0123456789abcdef0123456789abcdef.mp4")
        #expect(Set(f.store.keys(.upload).map(\.name)) == [part.name, named.name])
        #expect(f.store.recording(sharingBytesOf: part) == nil, "nothing in the roll yet")
        let placed = try await f.store.put(.recording("up.mp4"), from: f.store.localFile(for: named), mode: .move) { _, _ throws(RollError) in }
        #expect(placed.sha256 == f.sha256)
        #expect(f.store.recording(sharingBytesOf: part) == .recording("up.mp4"))
        try f.store.remove(part)
        #expect(f.store.keys(.upload).isEmpty)
        #expect(try f.stored("up.mp4") == f.bytes, "the recording keeps the bytes")
    }
}
