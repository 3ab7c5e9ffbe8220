import Foundation

/// An advisory `flock(2)` on a file, released when the process dies (so a kill -9 never
/// leaves a stale lock behind) or when ``release()`` is called.
package final class FileLock {
    private var fd: Int32

    /// Blocks until the lock on `url` is held, shared or exclusive.
    package init(_ url: URL, exclusive: Bool) throws(RollError) {
        fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RollError.io(path: url.path, reason: String(cString: strerror(errno))) }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            close(fd)
            throw RollError.io(path: url.path, reason: "cannot lock: \(reason)")
        }
    }

    /// Releases the lock now.
    package func release() {
        // LOCK_UN first: a child spawned at this moment keeps a copy of the descriptor until it
        // execs, and closing ours alone would leave the lock held through that copy.
        if fd >= 0 { flock(fd, LOCK_UN); close(fd) }
        fd = -1
    }

    deinit { release() }
}
