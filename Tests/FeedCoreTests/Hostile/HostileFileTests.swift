import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// Files that never end or are too big: reading stops at ``FeedFile/maxBytes`` with one error.
@Suite("Hostile files")
struct HostileFileTests {
    @Test func anEndlessDeviceStopsAtTheLimit() throws {
        // /dev/zero never ends: without a cap the reader would take all memory.
        let limit = 3 << 20
        #expect(throws: FeedError.invalid(FeedProblem(file: "/dev/zero", line: 1, column: 1, path: "", message: "larger than 3 MiB: not read as a feed"))) {
            _ = try FeedFile.read("/dev/zero", limit: limit)
        }
    }

    @Test func aRegularFileOverTheLimitIsRefusedBeforeReading() throws {
        let folder = try ScratchFolder()
        let file = folder.url("big.json")
        try Data(repeating: UInt8(ascii: " "), count: 1001).write(to: file)

        #expect(throws: FeedError.invalid(FeedProblem(file: file.path, line: 1, column: 1, path: "", message: "larger than 1000 bytes: not read as a feed"))) {
            _ = try FeedFile.read(file.path, limit: 1000)
        }
        #expect(try FeedFile.read(file.path, limit: 1001).bytes.count == 1001)
    }
}
