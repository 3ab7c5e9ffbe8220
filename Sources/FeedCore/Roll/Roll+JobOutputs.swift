import Foundation

extension Roll {
    /// Removes `recordings/<name>`, a file a job's attempt renamed in without completing (its
    /// worker died or lost its lease): the job's row names it, and no recording row can, since a
    /// job's completion and its recording's row are one transaction. A file already gone is fine.
    /// Holds the roll's shared lock, as any file step does, so `verify` never sees it half done.
    public func removeAbandonedOutput(named name: String) throws(RollError) {
        let lock = try FileLock(paths.lock, exclusive: false)
        defer { lock.release() }
        try media.remove(.recording(name))
    }
}
