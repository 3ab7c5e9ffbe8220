import Crypto
import Foundation

/// The small set of POSIX file operations the roll needs, each durable (fsync'd) and each
/// throwing a ``RollError`` that names the file.
enum DurableFile {
    static let chunkSize = 1 << 20

    /// SHA-256 and size of the file at `url`, read in 1 MiB chunks.
    static func hash(_ url: URL) throws(RollError) -> (sha256: String, bytes: Int64) {
        let input = open(url.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(url, "cannot open") }
        defer { close(input) }
        let ring = HashingRing(chunkSize: chunkSize)
        defer { ring.end() }
        var total: Int64 = 0
        while true {
            let buffer = ring.nextBuffer()
            let n = try readSome(input, into: buffer, url)
            ring.hash(count: n)
            if n == 0 { break }
            total += Int64(n)
        }
        return (try ring.digest(url), total)
    }

    /// The chunk ``copyHashing(_:to:)`` copies and hashes at a time.
    static let copyChunkSize = 4 << 20

    /// Copies `source` to a new file `destination` while hashing it, then fsyncs the copy.
    ///
    /// The kernel copies, chunk by chunk (`copy_file_range(2)`: the bytes never pass through
    /// this process), and a second thread hashes each chunk once it is copied, reading it back
    /// from `destination` while it is still in the page cache: the digest is of the bytes stored,
    /// and hashing overlaps copying. Where the kernel does not copy (EXDEV, ENOSYS, EINVAL: another
    /// file system on an older kernel, a special file), or fails in any way, read(2) and write(2)
    /// take over from where it stopped; a real failure then throws from them, naming the file.
    static func copyHashing(_ source: URL, to destination: URL) throws(RollError) -> (sha256: String, bytes: Int64) {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure(source, "cannot open") }
        defer { close(input) }
        // Read and write: the hashing thread reads the copy back.
        let output = open(destination.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure(destination, "cannot create") }
        defer { close(output) }
        let ring = HashingRing(chunkSize: copyChunkSize)
        defer { ring.end() }
        var total: Int64 = 0
        var inKernel = copyFileRange != nil
        while true {
            let buffer = ring.nextBuffer()
            var n = 0
            // A 0 at the very start may be a file whose size the kernel does not know (in /proc): read says.
            if inKernel, let copied = copyInKernel(input, output, count: buffer.count), copied > 0 || total > 0 {
                n = copied
                if n > 0 { ring.hash(readingBack: n, of: output, at: total) } else { ring.hash(count: 0) }
            } else {
                inKernel = false
                n = try readSome(input, into: buffer, source)
                ring.hash(count: n)
                if n > 0 { try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0..<n]), destination) }
            }
            if n == 0 { break }
            // A failure here is only a lost head start: fsync below still writes everything.
            _ = startWriteback?(output, total, Int64(n), syncFileRangeWrite)
            total += Int64(n)
        }
        if fsync(output) != 0 { throw failure(destination, "fsync failed") }
        return (try ring.digest(destination), total)
    }

    /// copy_file_range(2) of up to `count` bytes from `input`'s position to `output`'s, again after
    /// EINTR: the byte count (0 at the end of the file), nil when the kernel does not copy. Without
    /// offsets both positions move on, so read and write can take over at any point.
    private static func copyInKernel(_ input: Int32, _ output: Int32, count: Int) -> Int? {
        guard let copyFileRange else { return nil }
        while true {
            let n = copyFileRange(input, nil, output, nil, count, 0)
            if n >= 0 { return n }
            if errno != EINTR { return nil }
        }
    }

    /// copy_file_range(2), which glibc's Swift module hides like sync_file_range (it needs
    /// _GNU_SOURCE): looked up once; where it is missing, copies use read and write.
    private static let copyFileRange: (@convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int)? = {
        guard let symbol = dlsym(nil, "copy_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int).self)
    }()

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

    /// write(2) until every byte of `bytes` is written, again after EINTR.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ url: URL) throws(RollError) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 { if errno == EINTR { continue }; throw failure(url, "write failed") }
            offset += n
        }
    }

    /// Writes `bytes` to `url` through a temporary sibling and a rename, so readers never see half
    /// a file; the folder is then flushed too, so the name survives a crash. A failed rename
    /// (`url` is a folder, say) leaves no temporary file behind.
    static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(RollError) {
        let writer = try AtomicFileWriter(url)
        try writer.write(bytes)
        try writer.commit()
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

    /// What a failed ``writeAtomically(_:to:)`` of the output `path` (as the user named it) means:
    /// the file could not be created (73), or it could not be written (a full disk: 74).
    static func outputFailure(_ error: RollError, path: String) -> RollError {
        switch error {
        case let .cannotCreate(_, reason): .cannotCreate(path: path, reason: reason)
        case let .io(_, reason): .io(path: path, reason: reason)
        default: error
        }
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
/// The loop's side, on one thread: ``nextBuffer()``, then either fill it and ``hash(count:)``
/// (0 ends the message) and only read the buffer after (to write it out), or leave it to the
/// thread with ``hash(readingBack:of:at:)``, which reads the chunk from a file into it first;
/// ``digest(_:)`` at the end, ``end()`` on every way out.
private final class HashingRing: @unchecked Sendable {
    // No lock: `lengths`, `files` and `offsets[slot]` are written before `filled.signal()` and read
    // after `filled.wait()`; a buffer is refilled only after `free.wait()` says its chunk is hashed;
    // `result` and `readBackFailure` are read only after the thread is joined.
    private static let depth = 4
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: depth)
    private let files = UnsafeMutableBufferPointer<Int32>.allocate(capacity: depth)     // -1: the loop filled it
    private let offsets = UnsafeMutableBufferPointer<Int64>.allocate(capacity: depth)
    private let filled = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: 0)   // counts up in init: libdispatch traps when a
                                                     // semaphore dies below its starting value
    private var result = ""
    private var readBackFailure: String?   // the thread's; read after it is joined
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
        files.deallocate()
        offsets.deallocate()
    }

    /// The buffer to read the next chunk into, once the chunk it held is hashed.
    func nextBuffer() -> UnsafeMutableRawBufferPointer {
        free.wait()
        return buffers[slot]
    }

    /// Hashes the first `count` bytes of the buffer ``nextBuffer()`` gave; 0 ends the message.
    func hash(count: Int) {
        submit(count, file: -1, offset: 0)
    }

    /// Hashes `count` (> 0) bytes of `file` from `offset`, which the thread reads into the buffer
    /// ``nextBuffer()`` gave (pread(2): the file's position is left alone).
    func hash(readingBack count: Int, of file: Int32, at offset: Int64) {
        submit(count, file: file, offset: offset)
    }

    private func submit(_ count: Int, file: Int32, offset: Int64) {
        lengths[slot] = count
        files[slot] = file
        offsets[slot] = offset
        filled.signal()
        slot = (slot + 1) % Self.depth
        if count == 0 { ended = true }
    }

    /// The digest of the whole message, as hex, once the last chunk is hashed.
    /// - Throws: an I/O error naming `file` when a chunk could not be read back.
    func digest(_ file: URL) throws(RollError) -> String {
        end()
        // The thread has ended: its last writes are visible.
        if let readBackFailure { throw RollError.io(path: file.path, reason: readBackFailure) }
        return result
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
            let read = files[slot] < 0 || readBack(count, of: files[slot], at: offsets[slot], into: buffers[slot])
            // After a failed read back the digest is lost, but chunks are still taken: the loop
            // never waits for a free buffer that does not come.
            if read && readBackFailure == nil {
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffers[slot][0..<count]))
            }
            free.signal()
            slot = (slot + 1) % Self.depth
        }
        result = hasher.finalize().hex
    }

    /// pread(2) of `count` bytes at `offset` into `buffer`, again after EINTR and short reads;
    /// false (the reason kept) when it fails or the file ends first.
    private func readBack(_ count: Int, of file: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < count {
            let n = pread(file, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            if readBackFailure == nil {
                readBackFailure = n == 0 ? "read back failed: the copy is shorter than what was copied"
                    : "read back failed: \(String(cString: strerror(errno)))"
            }
            return false
        }
        return true
    }
}
