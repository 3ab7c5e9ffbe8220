import Foundation

extension Roll {
    /// Checks every row against its file (existence and SHA-256) and every file against the
    /// rows: orphans in `recordings/`, leftovers in `.incoming/` and `.trash/`, stale HLS
    /// ladders in `.hls/`, stale posters in `.thumbs/` and stale fast-start copies in
    /// `.faststart/`.
    ///
    /// The caches are judged against the roll as ``fix()`` will leave it: the ladders, posters
    /// and fast-start copies of a row whose file is missing, changed or half removed are stale
    /// too (they show the old bytes or nothing), so the report is complete and one `fix` clears it.
    ///
    /// `deep`: whether each recording's bytes are hashed, or only their existence and size are
    /// checked; nil hashes in a folder (local reads) and not in a bucket (a fetch per object).
    ///
    /// Holds the roll's file lock exclusively, so adds and removals in other processes
    /// finish first and are never mistaken for crash leftovers.
    public func verify(deep: Bool? = nil) async throws(RollError) -> RollReport {
        let lock = try FileLock(paths.lock, exclusive: true)
        defer { lock.release() }
        return try await scan(deep: deep ?? (media is FolderMediaStore))
    }

    /// Verifies, then repairs every problem found (see ``RollProblem`` for each repair), and
    /// verifies again. The report names everything a repair would leave stale, so `after` is
    /// clean unless a repair failed (each failure is in `failed`).
    public func fix(deep: Bool? = nil) async throws(RollError) -> RollRepair {
        let lock = try FileLock(paths.lock, exclusive: true)
        defer { lock.release() }
        let deep = deep ?? (media is FolderMediaStore)
        let before = try await scan(deep: deep)
        var repaired: [RollProblem] = []
        var failed: [(RollProblem, String)] = []
        for problem in before.problems {
            do {
                try await repair(problem)
                repaired.append(problem)
            } catch {
                failed.append((problem, error.description))
            }
        }
        return RollRepair(repaired: repaired, failed: failed, after: try await scan(deep: deep))
    }

    private func scan(deep: Bool) async throws(RollError) -> RollReport {
        // A store that cannot answer would make every medium look missing.
        try media.checkReachable()
        let rows = try await catalog.recordings(after: nil, limit: nil).sorted { $0.id < $1.id }
        let trash = Set(media.retired())
        var problems: [RollProblem] = []
        var known = Set<String>()
        var trashedRows = Set<String>()
        // The rows `fix` leaves as they are: only their caches stay.
        var intact: [Recording] = []
        for row in rows {
            known.insert(RollPaths.storedName(row.fileName))
            let key = MediaKey.recording(row.fileName)
            let trashName = Roll.trashName(row)
            guard media.exists(key) else {
                if trash.contains(trashName) {
                    trashedRows.insert(trashName)
                    problems.append(.interruptedRemoval(id: row.id, fileName: row.fileName))
                } else {
                    problems.append(.missingFile(id: row.id, fileName: row.fileName))
                }
                continue
            }
            if !deep {
                let size = media.size(of: key)?.bytes ?? -1
                if size != row.bytes {
                    problems.append(.sizeMismatch(id: row.id, fileName: row.fileName, expected: row.bytes, actual: size))
                } else {
                    intact.append(row)
                }
                continue
            }
            let actual = try media.fingerprint(of: key).sha256
            if actual != row.sha256 {
                problems.append(.hashMismatch(id: row.id, fileName: row.fileName, expected: row.sha256, actual: actual))
            } else {
                intact.append(row)
            }
        }
        for name in media.keys(.recording).map(\.name).sorted() where !known.contains(name) {
            problems.append(.orphan(fileName: name))
        }
        for name in media.incomplete().sorted() { problems.append(.incomingLeftover(name: name)) }
        for name in trash.sorted() where !trashedRows.contains(name) { problems.append(.trashLeftover(name: name)) }
        for name in staleHLS(rows: intact) { problems.append(.staleHLS(name: name)) }
        for name in stalePosters(rows: intact) { problems.append(.stalePoster(name: name)) }
        for name in staleFastStart(rows: intact) { problems.append(.staleFastStart(name: name)) }
        return RollReport(checked: rows.count, problems: problems)
    }

    private func repair(_ problem: RollProblem) async throws(RollError) {
        switch problem {
        case let .missingFile(id, fileName):
            // Asked again, of a store that answers, before the row goes.
            try media.checkReachable()
            guard !media.exists(.recording(fileName)) else { return }
            try await catalog.delete(id: id)
            // The file may be a symbolic link (`add --link` across file systems) whose target is
            // gone: it goes too, or the next verify would find it as an orphan it cannot adopt.
            let key = MediaKey.recording(fileName)
            if Roll.isSymbolicLink(media.localFile(for: key)) { try media.remove(key) }
        case let .interruptedRemoval(id, fileName):
            try await catalog.delete(id: id)
            try media.purge(retired: "\(id)-\(RollPaths.storedName(fileName))")
        case let .hashMismatch(id, fileName, _, _), let .sizeMismatch(id, fileName, _, _):
            let key = MediaKey.recording(fileName)
            let facts = try prober.probe(path: media.localFile(for: key).path)
            let (sha256, bytes) = try media.fingerprint(of: key)
            if var row = try await catalog.recording(id: id) {
                row.media = facts
                row.bytes = bytes
                row.sha256 = sha256
                try await catalog.updateContent(row)
            }
        case let .orphan(fileName):
            let key = MediaKey.recording(fileName)
            let file = media.localFile(for: key)
            let facts = try prober.probe(path: file.path)
            let (sha256, bytes) = try media.fingerprint(of: key)
            let recording = Recording(fileName: fileName, originalPath: file.path, createdAt: media.modified(key) ?? Date(),
                                      media: facts, bytes: bytes, sha256: sha256)
            _ = try await catalog.insert(recording, refusingDuplicates: false)
        case let .incomingLeftover(name):
            try media.discardIncomplete(name)
        case let .trashLeftover(name):
            try media.purge(retired: name)
        case let .staleHLS(name):
            try media.remove(.ladder(name))
        case let .staleFastStart(name):
            try media.remove(.fastStart(name))
        case let .stalePoster(name):
            // A poster, or a storyboard.
            try media.remove(MediaKey(kind: name.hasSuffix("-storyboard") ? .storyboard : .poster, name: name))
        }
    }

    /// Entries of `.thumbs/` that are no poster of one of `rows` (`<id>-<ms>.jpg`): posters of
    /// recordings that are gone or whose bytes changed, and writes that never finished.
    private func stalePosters(rows: [Recording]) -> [String] {
        let ids = Set(rows.map(\.id))
        return (media.keys(.poster) + media.keys(.storyboard)).map(\.name).filter { name in
            guard !name.hasPrefix("."), let id = name.split(separator: "-").first.flatMap({ Int64($0) }) else { return true }
            return !ids.contains(id)
        }.sorted()
    }

    /// Entries of `.faststart/` that are no copy of one of `rows` (a copy is named after the
    /// recording's stored file): copies of recordings that are gone or whose bytes changed, and
    /// writes that never finished (`.NAME.XXXX.part`). Copies of a server's feed clips
    /// (``FastStartCopies/isFeedClipCopy(_:)``) belong to no row and are kept: the server
    /// deletes a clip's old copy when it makes a new one.
    private func staleFastStart(rows: [Recording]) -> [String] {
        let copies = Set(rows.map { RollPaths.storedName($0.fileName) })
        return media.keys(.fastStart).map(\.name).filter { name in
            name.hasPrefix(".") || !(copies.contains(name) || FastStartCopies.isFeedClipCopy(name))
        }.sorted()
    }
}
