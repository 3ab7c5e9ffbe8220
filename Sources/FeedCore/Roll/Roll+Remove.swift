import Foundation

extension Roll {
    /// Removes the recordings with these ids (as typed), row and file together.
    ///
    /// Every id is looked up first, so an unknown one removes nothing. Per recording the
    /// file is renamed into `.trash/<id>-<file>` first, then the row is deleted, then the
    /// trash file is unlinked: a crash in between leaves a row whose file sits in the trash
    /// (verify: interrupted removal) or a trash leftover, both of which `fix` finishes.
    /// - Parameter isCancelled: polled before each recording; once true, the rest are kept
    ///   and only those removed so far are returned.
    /// - Throws: ``RollError/unknownID(_:)`` naming the first unknown id.
    @discardableResult
    public func remove(ids: [String], isCancelled: () -> Bool = { false }) async throws(RollError) -> [Recording] {
        var targets: [Recording] = []
        for id in ids { targets.append(try await recording(id: id)) }
        var removed: [Recording] = []
        for recording in targets {
            if isCancelled() { break }
            try await remove(recording)
            removed.append(recording)
        }
        return removed
    }

    func remove(_ recording: Recording) async throws(RollError) {
        let lock = try FileLock(paths.lock, exclusive: false)
        defer { lock.release() }
        // Retire the bytes, delete the row, purge the bytes (MediaStore's ordering).
        let retired = Roll.trashName(recording)
        let moved = try media.retire(.recording(recording.fileName), as: retired)
        CrashPoint.reach(.removeTrashed)
        let id = recording.id
        try await catalog.delete(id: id)
        CrashPoint.reach(.removeDeleted)
        if moved { try media.purge(retired: retired) }
        removeThumbnails(of: id)
        removeHLS(of: id)
        try? media.remove(.fastStart(RollPaths.storedName(recording.fileName)))
    }

    /// The name a recording's file takes in `.trash/` while its removal is under way.
    static func trashName(_ recording: Recording) -> String { "\(recording.id)-\(RollPaths.storedName(recording.fileName))" }

    /// Deletes every cached poster and the storyboard of recording `id`.
    func removeThumbnails(of id: Int64) {
        for key in media.keys(.poster) + media.keys(.storyboard) where key.name.hasPrefix("\(id)-") { try? media.remove(key) }
    }
}
