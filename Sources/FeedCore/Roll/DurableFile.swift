import Crypto
import Foundation

/// The small set of POSIX file operations the roll needs, each durable (fsync'd) and each
/// throwing a ``RollError`` that names the file.
enum DurableFile {
    static let chunkSize = 1 << 20

    /// SHA-256 and size of the file at `url`, read in 1 MiB chunks.
    static func hash(_ url: URL) throws(RollError) -> (sha256: String, bytes: Int64) {
        try stream(from: url, to: nil)
    }

    /// Copies `source` to a new file `destination` while hashing it, in one pass of 1 MiB chunks,
    /// then fsyncs the copy.
    static func copyHashing(_ source: URL, to destination: URL) throws(RollError) -> (sha256: String, bytes: Int64) {
        try stream(from: source, to: destination)
    }

    private static func stream(from source: URL, to destination: URL?) throws(RollError) -> (sha256: String, bytes: Int64) {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(source, "cannot open") }
        defer { close(input) }
        var output: Int32 = -1
        if let destination {
            output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard output >= 0 else { throw failure(destination, "cannot create") }
        }
        defer { if output >= 0 { close(output) } }
        let ring = HashingRing(chunkSize: chunkSize)
        defer { ring.end() }
        var total: Int64 = 0
        while true {
            let buffer = ring.nextBuffer()
            let n = try readSome(input, into: buffer, source)
            ring.hash(count: n)
            if n == 0 { break }
            if output >= 0, let destination {
                try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0..<n]), destination)
                // A failure here is only a lost head start: fsync below still writes everything.
                _ = startWriteback?(output, total, Int64(n), syncFileRangeWrite)
            }
            total += Int64(n)
        }
        if output >= 0, let destination, fsync(output) != 0 { throw failure(destination, "fsync failed") }
        return (ring.digest(), total)
    }

    /// read(2) into `buffer`, again after EINTR: the byte count, 0 at the end of the file.
    private static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ url: URL) throws(RollError) -> Int {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw failure(url, "read failed") }
        }
    }

    /// sync_file_range(2): with SYNC_FILE_RANGE_WRITE it starts writing a range of a file to disk
    /// and returns without waiting for the disk. Called on each chunk just written, it lets the
    /// disk write while the loop goes on, so the fsync at the end finds almost nothing left
    /// (1.5 GB: 0.5 s less). Glibc's Swift module hides it (it needs _GNU_SOURCE), so it is
    /// looked up once; where it is missing, fsync does all the writing as before.
    private static let startWriteback: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
    private static let syncFileRangeWrite: UInt32 = 2   // SYNC_FILE_RANGE_WRITE in <fcntl.h>

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ url: URL) throws(RollError) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 { if errno == EINTR { continue }; throw failure(url, "write failed") }
            offset += n
        }
    }

    /// Writes `bytes` to `url` through a temporary sibling and a rename, so readers never see half a file.
    static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(RollError) {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(temp, "cannot create") }
        let failed: RollError? = bytes.withUnsafeBytes { raw in
            do throws(RollError) { try writeAll(fd, raw, temp) } catch { return error }
            return fsync(fd) == 0 ? nil : failure(temp, "fsync failed")
        }
        close(fd)
        if let failed {
            unlink(temp.path)
            throw failed
        }
        try rename(temp, to: url)
    }

    /// Flushes a file or folder (after a rename, the folder holds the new name).
    static func sync(_ url: URL) throws(RollError) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(url, "cannot open") }
        defer { close(fd) }
        if fsync(fd) != 0 { throw failure(url, "fsync failed") }
    }

    /// rename(2); atomic within one file system.
    static func rename(_ source: URL, to destination: URL) throws(RollError) {
        if Glibc.rename(source.path, destination.path) != 0 {
            throw failure(source, "cannot rename to \(destination.path)")
        }
    }

    /// Removes a file; a file already gone is fine.
    static func remove(_ url: URL) throws(RollError) {
        if unlink(url.path) != 0 && errno != ENOENT { throw failure(url, "cannot remove") }
    }

    /// A RollError carrying `errno`'s text.
    static func failure(_ url: URL, _ what: String) -> RollError {
        .io(path: url.path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// SHA-256 on a thread of its own, fed through a ring of buffers: the copy loop reads and writes
/// chunk k+1 while chunk k is hashed, so a copy takes the longer of hashing (~1.2 GB/s) and
/// copying, not their sum.
///
/// The loop's side, on one thread: ``nextBuffer()``, fill it, ``hash(count:)`` (0 ends the
/// message), then only read the buffer (to write it out); ``digest()`` at the end, ``end()``
/// on every way out.
private final class HashingRing: @unchecked Sendable {
    // No lock: `lengths[slot]` is written before `filled.signal()` and read after `filled.wait()`;
    // a buffer is refilled only after `free.wait()` says its chunk is hashed; `result` is read
    // only after the thread is joined.
    private static let depth = 4
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: depth)
    private let filled = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: 0)   // counts up in init: libdispatch traps when a
                                                     // semaphore dies below its starting value
    private var result = ""
    private var slot = 0          // the loop's next buffer
    private var ended = false     // the loop has handed over count 0
    private var thread: JoinableThread?

    init(chunkSize: Int) {
        buffers = (0..<Self.depth).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
        for _ in buffers { free.signal() }
        // The thread holds the ring until the message ends, so the buffers outlive its last read.
        // It is joined (``end()``), so a `feed roll add` that fails right after has no thread
        // still tearing down when it exits.
        thread = JoinableThread(name: "feed.hash") { [self] in run() }
    }

    deinit {
        buffers.forEach { $0.deallocate() }
        lengths.deallocate()
    }

    /// The buffer to read the next chunk into, once the chunk it held is hashed.
    func nextBuffer() -> UnsafeMutableRawBufferPointer {
        free.wait()
        return buffers[slot]
    }

    /// Hashes the first `count` bytes of the buffer ``nextBuffer()`` gave; 0 ends the message.
    func hash(count: Int) {
        lengths[slot] = count
        filled.signal()
        slot = (slot + 1) % Self.depth
        if count == 0 { ended = true }
    }

    /// The digest of the whole message, as hex, once the last chunk is hashed.
    func digest() -> String {
        end()
        return result   // the thread has ended: its last write is visible
    }

    /// Ends the message if the loop has not (it threw), and waits until the thread has ended.
    func end() {
        if !ended {
            _ = nextBuffer()
            hash(count: 0)
        }
        thread?.join()
    }

    private func run() {
        var hasher = SHA256()
        var slot = 0
        while true {
            filled.wait()
            let count = lengths[slot]
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffers[slot][0..<count]))
            free.signal()
            slot = (slot + 1) % Self.depth
        }
        result = hasher.finalize().hex
    }
}
