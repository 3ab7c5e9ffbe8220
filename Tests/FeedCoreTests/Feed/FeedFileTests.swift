import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite struct FeedFileTests {
    @Test func readsARegularFileWhole() throws {
        let folder = try ScratchFolder()
        let file = folder.url("big.bin")
        let bytes = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: file)
        let read = try FeedFile.read(file.path)
        #expect(read.source == file.path)
        #expect(read.bytes == bytes)
    }

    @Test func readsAPipeInChunks() throws {
        // Given a FIFO fed by another thread with more than one 1 MiB chunk
        let folder = try ScratchFolder()
        let fifo = folder.url("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let bytes = (0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo.path) {
                handle.write(Data(bytes))
                try? handle.close()
            }
        }
        writer.start()
        // When read as a feed file, then every byte arrives in order
        let read = try FeedFile.read(fifo.path)
        #expect(read.bytes == bytes)
    }
}
