import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("SHA256")
struct SHA256Tests {
    @Test("FIPS 180-2 example messages", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownAnswers(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test("chunked updates give the same digest as one update, across block boundaries")
    func chunking() {
        // Given 1,000 pseudo-random bytes
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = SHA256.hex(bytes)
        // When fed in uneven chunks (1, 63, 64, 65 … bytes)
        for size in [1, 7, 63, 64, 65, 200] {
            var hasher = SHA256()
            var start = 0
            while start < bytes.count {
                hasher.update(Array(bytes[start..<min(start + size, bytes.count)]))
                start += size
            }
            // Then the digest is unchanged
            #expect(hasher.finalize() == whole, "chunk size \(size)")
        }
    }

    @Test("agrees with coreutils sha256sum on a 3 MiB file")
    func matchesSha256sum() throws {
        let folder = try ScratchFolder()
        let file = folder.url("data.bin")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = String(output.prefix(64))
        #expect(try DurableFile.hash(file).sha256 == expected)
        #expect(try DurableFile.hash(file).bytes == Int64(bytes.count))
    }
}
