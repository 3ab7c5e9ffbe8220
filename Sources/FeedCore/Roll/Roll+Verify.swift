import Foundation
import GRDB

extension Roll {
    /// Checks every row against its file (existence and SHA-256) and every file against the
    /// rows: orphans in `recordings/`, leftovers in `.incoming/` and `.trash/`.
    ///
    /// Holds the roll's file lock exclusively, so adds and removals in other processes
    /// finish first and are never mistaken for crash leftovers.
    public func verify() throws(RollError) -> RollReport {
        let lock = try FileLock(paths.lock, exclusive: true)
        defer { lock.release() }
        return try scan()
    }

    /// Verifies, then repairs every problem found (see ``RollProblem`` for each repair),
    /// drops posters of removed recordings, and verifies again.
    public func fix() throws(RollError) -> RollRepair {
        let lock = try FileLock(paths.lock, exclusive: true)
        defer { lock.release() }
        let before = try scan()
        var repaired: [RollProblem] = []
        var failed: [(RollProblem, String)] = []
        for problem in before.problems {
            do {
                try repair(problem)
                repaired.append(problem)
            } catch {
                failed.append((problem, error.description))
            }
        }
        try dropStaleThumbnails()
        return RollRepair(repaired: repaired, failed: failed, after: try scan())
    }

    private func scan() throws(RollError) -> RollReport {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, file_name, sha256 FROM recording ORDER BY id")
                .map { (id: $0[0] as Int64, fileName: $0[1] as String, sha256: $0[2] as String) }
        }
        let trash = Set(listing(paths.trash))
        var problems: [RollProblem] = []
        var known = Set<String>()
        var trashedRows = Set<String>()
        for row in rows {
            known.insert(RollPaths.storedName(row.fileName))
            let file = paths.file(named: row.fileName)
            let trashName = "\(row.id)-\(RollPaths.storedName(row.fileName))"
            guard access(file.path, F_OK) == 0 else {
                if trash.contains(trashName) {
                    trashedRows.insert(trashName)
                    problems.append(.interruptedRemoval(id: row.id, fileName: row.fileName))
                } else {
                    problems.append(.missingFile(id: row.id, fileName: row.fileName))
                }
                continue
            }
            let actual = try DurableFile.hash(file).sha256
            if actual != row.sha256 {
                problems.append(.hashMismatch(id: row.id, fileName: row.fileName, expected: row.sha256, actual: actual))
            }
        }
        for name in listing(paths.recordings).sorted() where !name.hasPrefix(".") && !known.contains(name) {
            problems.append(.orphan(fileName: name))
        }
        for name in listing(paths.incoming).sorted() { problems.append(.incomingLeftover(name: name)) }
        for name in trash.sorted() where !trashedRows.contains(name) { problems.append(.trashLeftover(name: name)) }
        return RollReport(checked: rows.count, problems: problems)
    }

    private func listing(_ dir: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    }

    private func repair(_ problem: RollProblem) throws(RollError) {
        switch problem {
        case let .missingFile(id, _):
            _ = try write { db in try Recording.deleteOne(db, key: id) }
            removeThumbnails(of: id)
        case let .interruptedRemoval(id, fileName):
            _ = try write { db in try Recording.deleteOne(db, key: id) }
            try DurableFile.remove(paths.trash.appendingPathComponent("\(id)-\(RollPaths.storedName(fileName))"))
            removeThumbnails(of: id)
        case let .hashMismatch(id, fileName, _, _):
            let file = paths.file(named: fileName)
            let media = try prober.probe(path: file.path)
            let (sha256, bytes) = try DurableFile.hash(file)
            _ = try write { db in
                guard var row = try Recording.fetchOne(db, key: id) else { return }
                row.media = media
                row.bytes = bytes
                row.sha256 = sha256
                try row.update(db)
            }
            removeThumbnails(of: id)
        case let .orphan(fileName):
            let file = paths.file(named: fileName)
            let media = try prober.probe(path: file.path)
            let (sha256, bytes) = try DurableFile.hash(file)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date()
            let recording = Recording(fileName: fileName, originalPath: file.path, createdAt: modified,
                                      media: media, bytes: bytes, sha256: sha256)
            _ = try write { db in
                var row = recording
                try row.insert(db)
            }
        case let .incomingLeftover(name):
            try DurableFile.remove(paths.incoming.appendingPathComponent(name))
        case let .trashLeftover(name):
            try DurableFile.remove(paths.trash.appendingPathComponent(name))
        }
    }

    private func dropStaleThumbnails() throws(RollError) {
        let ids = Set(try read { db in try Int64.fetchAll(db, sql: "SELECT id FROM recording") })
        for name in listing(paths.thumbs) {
            let id = name.split(separator: "-").first.flatMap { Int64($0) }
            if id.map({ !ids.contains($0) }) ?? true {
                try? DurableFile.remove(paths.thumbs.appendingPathComponent(name))
            }
        }
    }
}
