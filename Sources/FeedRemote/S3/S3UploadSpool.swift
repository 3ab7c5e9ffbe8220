import FeedCore
import Foundation

/// Where a tus upload's bytes wait on local disk between syncs (``S3UploadAppender``): up to a
/// part's worth past the last whole part, plus what came since. The file is unlinked as soon as
/// it is opened, so it is gone with its descriptor, whatever ends the process; what must survive
/// a crash is the upload's state object, written at each sync.
final class S3UploadSpool {
    private var fd: Int32
    /// Bytes in the file.
    private(set) var count = 0
    /// What errors name.
    private let shown: String

    /// An empty spool in `folder` (created if need be); `shown` names the upload in errors.
    init(folder: URL, shown: String) throws(RollError) {
        self.shown = shown
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(".spool-\(UUID().uuidString)")
        fd = open(file.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: file.path, reason: "cannot open a spool file (\(String(cString: strerror(errno))))") }
        unlink(file.path)
    }

    deinit { close() }

    /// Adds `bytes` at the end.
    func append(_ bytes: UnsafeRawBufferPointer) throws(RollError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(count + done))
            if n < 0 { if errno == EINTR { continue }; throw failure("write") }
            done += n
        }
        count += bytes.count
    }

    /// Adds `bytes` at the end.
    func append(_ bytes: [UInt8]) throws(RollError) {
        var failure: RollError?
        bytes.withUnsafeBytes { raw in
            do throws(RollError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The `length` bytes at `offset`.
    func read(at offset: Int, length: Int) throws(RollError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length), done = 0, failed = false
        bytes.withUnsafeMutableBytes { buffer in
            while done < length {
                let n = pread(fd, buffer.baseAddress! + done, length - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failed = true; return }
                done += n
            }
        }
        if failed { throw failure("read") }
        return bytes
    }

    /// Keeps only the bytes from `offset` on, moved to the start.
    func dropFirst(_ offset: Int) throws(RollError) {
        guard offset > 0 else { return }
        let rest = try read(at: offset, length: count - offset)
        try truncate(to: 0)
        try append(rest)
    }

    /// Drops the bytes past `size`.
    func truncate(to size: Int) throws(RollError) {
        guard ftruncate(fd, off_t(size)) == 0 else { throw failure("truncate") }
        count = size
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func failure(_ step: String) -> RollError {
        .io(path: shown, reason: "cannot \(step) its local spool file (\(String(cString: strerror(errno))))")
    }
}
