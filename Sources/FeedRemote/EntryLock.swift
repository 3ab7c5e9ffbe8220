#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file, shared by threads and processes alike (each holder
/// opens the file itself, and flock locks belong to the open file). Waiting polls, so an async
/// caller never blocks a thread and stays cancellable.
///
/// A holder may delete the lock file (eviction, `clear`): whoever then gets the lock on the
/// deleted file notices that the path no longer names it, and tries again on the new one.
final class EntryLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { release() }

    /// The lock on `path` if no one holds it, else nil.
    /// - Throws: `RemoteError.cache` when the file cannot be opened.
    static func attempt(_ path: String) throws(RemoteError) -> EntryLock? {
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cache(path: path, reason: String(cString: strerror(errno))) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                close(fd)
                return nil
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return EntryLock(fd: fd)
            }
            // The file was deleted by its last holder while we opened it: take the new one.
            close(fd)
        }
    }

    /// The lock on `path`, waiting (polling every `interval` milliseconds) while someone else
    /// holds it.
    /// - Throws: `RemoteError.cache`, or `CancellationError` when the task is cancelled.
    static func acquire(_ path: String, interval: Int = 20) async throws -> EntryLock {
        while true {
            if let lock = try attempt(path) { return lock }
            try await Task.sleep(for: .milliseconds(interval))
        }
    }

    /// Releases the lock (once; later calls do nothing).
    func release() {
        guard fd >= 0 else { return }
        // Unlock before closing: a child being spawned at this moment holds a copy of the
        // descriptor until it execs (O_CLOEXEC closes it only then), and the lock lives as long
        // as any copy does; LOCK_UN releases it for every copy at once.
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }
}
