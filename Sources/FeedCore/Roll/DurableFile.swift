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
        var hasher = SHA256()
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer.baseAddress, chunkSize)
            if n < 0 { if errno == EINTR { continue }; throw failure(source, "read failed") }
            if n == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            hasher.update(bufferPointer: chunk)
            if output >= 0, let destination {
                try writeAll(output, chunk, destination)
                // A failure here is only a lost head start: fsync below still writes everything.
                _ = startWriteback?(output, total, Int64(n), syncFileRangeWrite)
            }
            total += Int64(n)
        }
        if output >= 0, let destination, fsync(output) != 0 { throw failure(destination, "fsync failed") }
        return (hasher.finalize().hex, total)
    }

    /// sync_file_range(2): with SYNC_FILE_RANGE_WRITE it starts writing a range of a file to disk
    /// and returns without waiting for the disk. Called on each chunk just written, it lets the disk write
    /// while the loop hashes the next ones, so the fsync at the end finds almost nothing left
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
