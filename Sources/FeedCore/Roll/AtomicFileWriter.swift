import Foundation

/// A file written under a hidden temporary name beside its final one and renamed into place by
/// ``commit()``, so that a crash, a signal or a failed write leaves nothing at the final path:
/// feed's one way of writing an output that must appear whole or not at all (posters, sheets,
/// storyboards, downloads). Discarded (the temporary file removed) unless committed.
package final class AtomicFileWriter {
    /// Where the file appears on ``commit()``.
    package let url: URL
    /// The hidden temporary file beside it, `.NAME.UUID.tmp`.
    package let temporary: URL
    private var fd: Int32

    /// Creates the temporary file (never an existing one).
    /// - Throws: ``RollError/cannotCreate(path:reason:)`` naming `url`.
    package init(_ url: URL) throws(RollError) {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotCreate(path: url.path, reason: String(cString: strerror(errno))) }
    }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(RollError) {
        guard fd >= 0 else { throw DurableFile.failure(temporary, "already closed") }
        try DurableFile.writeAll(fd, bytes, temporary)
    }

    /// Appends `bytes`.
    package func write(_ bytes: some ContiguousBytes) throws(RollError) {
        let failed: RollError? = bytes.withUnsafeBytes { raw in
            do throws(RollError) { try write(raw) } catch { return error }
            return nil
        }
        if let failed { throw failed }
    }

    /// Flushes the bytes to disk and renames the file into place (then flushes its folder, as
    /// far as the file system allows). On failure nothing is at ``url`` that was not there before.
    package func commit() throws(RollError) {
        guard fd >= 0 else { throw DurableFile.failure(temporary, "already closed") }
        let synced = fsync(fd) == 0
        close(fd)
        fd = -1
        guard synced else {
            unlink(temporary.path)
            throw DurableFile.failure(temporary, "fsync failed")
        }
        do { try DurableFile.rename(temporary, to: url) } catch {
            unlink(temporary.path)
            throw error
        }
        // Best effort: some file systems refuse fsync(2) on a folder, and the file itself is whole.
        try? DurableFile.sync(url.deletingLastPathComponent())
    }

    /// Closes and removes the temporary file; nothing once committed.
    package func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporary.path)
    }

    deinit { discard() }
}
