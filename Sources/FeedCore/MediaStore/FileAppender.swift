import Foundation

/// A ``MediaAppender`` over a local file: `pwrite` at the offset, `fsync`, `ftruncate`.
final class FileAppender: MediaAppender {
    private var fd: Int32
    private let file: URL

    /// Opens `file` for writing, creating it (and nothing else: its folder must exist).
    init(file: URL) throws(RollError) {
        fd = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.failure(file, "cannot open") }
        self.file = file
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(RollError) {
        guard fd >= 0 else { throw .io(path: file.path, reason: "write after close") }
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 { if errno == EINTR { continue }; throw DurableFile.failure(file, "write failed") }
            done += n
        }
    }

    func sync() throws(RollError) {
        guard fd >= 0, fsync(fd) == 0 else { throw DurableFile.failure(file, "fsync failed") }
    }

    func truncate(to size: Int64) throws(RollError) {
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw DurableFile.failure(file, "cannot truncate") }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
