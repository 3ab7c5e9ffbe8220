import Crypto
import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// The roll's fingerprints: swift-crypto's SHA-256 as lowercase hex, and DurableFile's
/// streaming of a file through it in 1 MiB chunks while copying.
@Suite("SHA256")
struct SHA256Tests {
    @Test("FIPS 180-2 example messages, as lowercase hex", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownAnswers(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test("a million 'a's (FIPS 180-2 C.3), streamed in uneven chunks")
    func millionAs() {
        // Given a million 'a's
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        // When streamed 999 bytes at a time (the last chunk is one byte)
        var hasher = SHA256()
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(start + 999, raw.count)
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        // Then the digest is the published one
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("chunked updates give the same digest as one update, across block boundaries")
    func chunking() {
        // Given 1,000 pseudo-random bytes
        let bytes = noise(count: 1000)
        let whole = SHA256.hex(bytes)
        // When fed in uneven chunks (1, 63, 64, 65 … bytes)
        for size in [1, 7, 63, 64, 65, 200] {
            var hasher = SHA256()
            var start = 0
            while start < bytes.count {
                hasher.update(data: bytes[start..<min(start + size, bytes.count)])
                start += size
            }
            // Then the digest is unchanged
            #expect(hasher.finalize().hex == whole, "chunk size \(size)")
        }
    }

    @Test("hash and copyHashing agree with coreutils sha256sum on a file of 3 MiB + 17 bytes (four uneven reads)")
    func matchesSha256sum() async throws {
        // Given a file that does not end on a chunk boundary
        let folder = try ScratchFolder()
        let file = folder.url("data.bin")
        let bytes = noise(count: 3 * DurableFile.chunkSize + 17)
        try Data(bytes).write(to: file)
        let expected = try await sha256sum(file)
        // When it is hashed in place and copied while hashing
        let hashed = try DurableFile.hash(file)
        let copy = folder.url("copy.bin")
        let copied = try DurableFile.copyHashing(file, to: copy)
        // Then both give coreutils' digest and size, and the copy has the same bytes
        #expect(hashed.sha256 == expected)
        #expect(hashed.bytes == Int64(bytes.count))
        #expect(copied.sha256 == expected)
        #expect(copied.bytes == Int64(bytes.count))
        #expect(try Data(contentsOf: copy) == Data(bytes))
    }

    @Test("an empty file hashes to the empty message's digest")
    func emptyFile() async throws {
        let folder = try ScratchFolder()
        let file = folder.url.appendingPathComponent("empty.bin")
        try Data().write(to: file)
        let hashed = try DurableFile.hash(file)
        #expect(hashed.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hashed.bytes == 0)
        #expect(try await sha256sum(file) == hashed.sha256)
    }

    @Test("a failing read throws an I/O error naming the file and leaves no hashing thread waiting")
    func readFailure() throws {
        // Given a folder: it opens for reading, then its first read fails (EISDIR)
        let folder = try ScratchFolder()
        let copy = folder.url.appendingPathComponent("copy.bin")
        for _ in 0..<3 {
            // When it is hashed, and copied while hashing
            let hashing = #expect(throws: RollError.self) { try DurableFile.hash(folder.url) }
            let copying = #expect(throws: RollError.self) { try DurableFile.copyHashing(folder.url, to: copy) }
            // Then both throw (rather than hang), naming the folder and the failed read
            for error in [hashing, copying] {
                guard case let .io(path, reason)? = error else { Issue.record("\(String(describing: error))"); continue }
                #expect(path == folder.url.path)
                #expect(reason.hasPrefix("read failed"))
            }
            try? FileManager.default.removeItem(at: copy)
        }
    }

    @Test("copyHashing copies and hashes exactly, at sizes around its chunk", arguments: [
        0, 1, DurableFile.copyChunkSize - 1, DurableFile.copyChunkSize, DurableFile.copyChunkSize + 1, 2 * DurableFile.copyChunkSize + 17,
    ])
    func copyAroundChunks(size: Int) async throws {
        let folder = try ScratchFolder()
        let file = folder.url("data.bin"), copy = folder.url("copy.bin")
        let bytes = noise(count: size)
        try Data(bytes).write(to: file)

        let copied = try DurableFile.copyHashing(file, to: copy)

        let expected = try await sha256sum(file)
        #expect(copied.sha256 == expected && copied.bytes == Int64(size))
        #expect(try Data(contentsOf: copy) == Data(bytes))
    }

    @Test("copyHashing where the kernel cannot copy: from another file system, and from a file the kernel calls empty (/proc)")
    func copyFallsBack() throws {
        let folder = try ScratchFolder()
        // tmpfs to the scratch folder's file system: copy_file_range refuses (EXDEV) where they differ.
        let shm = URL(fileURLWithPath: "/dev/shm/feed-test-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: shm) }
        let bytes = noise(count: 2 * DurableFile.copyChunkSize + 5)
        try Data(bytes).write(to: shm)
        let fromShm = try DurableFile.copyHashing(shm, to: folder.url("shm.bin"))
        #expect(fromShm.sha256 == SHA256.hex(bytes) && fromShm.bytes == Int64(bytes.count))
        #expect(try Data(contentsOf: folder.url("shm.bin")) == Data(bytes))

        // /proc/version has size 0 on stat, yet bytes to read.
        let version = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/proc/version")))
        try #require(!version.isEmpty)
        let fromProc = try DurableFile.copyHashing(URL(fileURLWithPath: "/proc/version"), to: folder.url("version"))
        #expect(fromProc.sha256 == SHA256.hex(version) && fromProc.bytes == Int64(version.count))
        #expect(try Data(contentsOf: folder.url("version")) == Data(version))
    }

    /// `count` pseudo-random bytes (xorshift64, a fresh seed each call), cheap even in a debug build.
    private func noise(count: Int) -> [UInt8] {
        var state = UInt64.random(in: 1...UInt64.max)
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// The first field of `/usr/bin/sha256sum FILE` (its exit awaited, no thread blocked).
    private func sha256sum(_ file: URL) async throws -> String {
        let folder = try ScratchFolder()
        let output = folder.url("stdout")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try await ChildProcess.run(process)
        return String(String(decoding: try Data(contentsOf: output), as: UTF8.self).prefix(64))
    }
}
