import Foundation

/// Stored media in the roll's folder: a recording is `recordings/<name>`, posters and storyboards
/// are in `recordings/.thumbs/`, ladders in `.hls/`, fast-start copies in `.faststart/`. Puts
/// and derived media are staged in `recordings/.incoming/`, then renamed into place (and the
/// folder fsync'd; a recording's bytes fsync'd first); removals of recordings are renamed into
/// `recordings/.trash/` first. The crash ordering of ``MediaStore``, as renames within one file
/// system: a set (a ladder's folder) is published by one rename, members and all. Unfinished
/// uploads are `recordings/.uploads/<id>.part`, appended to in place.
public struct FolderMediaStore: MediaStore {
    /// The roll's folders.
    public let paths: RollPaths

    /// The store of the roll at `paths` (its folders are the roll's to create).
    public init(paths: RollPaths) { self.paths = paths }

    /// The folder the media of `kind` are in.
    private func place(of kind: MediaKey.Kind) -> URL {
        switch kind {
        case .recording: paths.recordings
        case .poster, .storyboard: paths.thumbs
        case .ladder: paths.hls
        case .fastStart: paths.faststart
        case .upload: paths.uploads
        }
    }

    public func localFile(for key: MediaKey) -> URL {
        place(of: key.kind).appendingPathComponent(RollPaths.storedName(key.name), isDirectory: key.kind.isSet)
    }

    public func put(_ key: MediaKey, from source: URL, mode: AddOptions.Mode,
                    check: (_ sha256: String, _ bytes: Int64) async throws(RollError) -> Void) async throws(RollError) -> MediaPlacement {
        let final = localFile(for: key)
        let incoming = paths.incoming.appendingPathComponent(UUID().uuidString + ".part")
        var fingerprint: (sha256: String, bytes: Int64)
        var staged = true, tookSource = false, copiedForMove = false
        switch mode {
        case .copy:
            fingerprint = try await copyIn(source, via: incoming, check: check)
        case .link:
            fingerprint = try DurableFile.hash(source)
            try await check(fingerprint.sha256, fingerprint.bytes)
            // Link the file a symbolic link points to, never the link: a relative one would
            // resolve inside recordings/ to something else or nothing.
            let target = Roll.resolved(source)
            if linkat(AT_FDCWD, target.path, AT_FDCWD, incoming.path, AT_SYMLINK_FOLLOW) != 0
                && symlink(target.path, incoming.path) != 0 {
                throw DurableFile.failure(incoming, "cannot link to \(target.path)")
            }
        case .move:
            fingerprint = try DurableFile.hash(source)
            try await check(fingerprint.sha256, fingerprint.bytes)
            // A symbolic link is not moved in (it could dangle there): its target's bytes are
            // copied and the link is removed, as across file systems.
            let isLink = Roll.isSymbolicLink(source)
            // Its bytes on disk before its name is in recordings/ (a stack's output was written
            // and closed, not synced): a crash must not leave a row over an empty file.
            if !isLink { try DurableFile.sync(source) }
            if !isLink && Glibc.rename(source.path, final.path) == 0 {
                staged = false
                tookSource = true
            } else {
                guard isLink || errno == EXDEV else { throw DurableFile.failure(source, "cannot move to \(final.path)") }
                fingerprint = try await copyIn(source, via: incoming, check: check)
                copiedForMove = true
            }
        }
        if staged {
            CrashPoint.reach(.addStaged)
            try DurableFile.rename(incoming, to: final)
        }
        try DurableFile.sync(final.deletingLastPathComponent())
        CrashPoint.reach(.addRenamed)
        return MediaPlacement(key: key, sha256: fingerprint.sha256, bytes: fingerprint.bytes, tookSource: tookSource,
                              copiedForMove: copiedForMove)
    }

    /// Copies `source` into the staging file, hashing; runs `check`; removes the staging file
    /// when either fails.
    private func copyIn(_ source: URL, via incoming: URL,
                        check: (_ sha256: String, _ bytes: Int64) async throws(RollError) -> Void) async throws(RollError) -> (sha256: String, bytes: Int64) {
        let fingerprint: (sha256: String, bytes: Int64)
        do { fingerprint = try DurableFile.copyHashing(source, to: incoming) } catch {
            try? DurableFile.remove(incoming)
            throw error
        }
        do { try await check(fingerprint.sha256, fingerprint.bytes) } catch {
            try? DurableFile.remove(incoming)
            throw error
        }
        return fingerprint
    }

    public func write(_ bytes: [UInt8], at key: MediaKey) throws(RollError) {
        try Self.makeFolder(place(of: key.kind))
        try DurableFile.writeAtomically(bytes, to: localFile(for: key))
    }

    public func stage(_ key: MediaKey) throws(RollError) -> URL {
        try Self.makeFolder(paths.incoming)
        let unique = UUID().uuidString.prefix(18).lowercased()
        return paths.incoming.appendingPathComponent("\(key.kind.rawValue)-\(unique)", isDirectory: key.kind.isSet)
    }

    @discardableResult
    public func publish(_ key: MediaKey, from staged: URL, replacing: Bool) throws(RollError) -> Bool {
        let final = localFile(for: key)
        let folder = final.deletingLastPathComponent()
        try Self.makeFolder(folder)
        if key.kind.isSet {
            // rename(2) takes an empty folder's place, never a filled one's.
            if Glibc.rename(staged.path, final.path) != 0 {
                guard errno == ENOTEMPTY || errno == EEXIST else { throw DurableFile.failure(staged, "cannot rename to \(final.path)") }
                guard replacing else {
                    try Self.removeTree(staged)
                    return false
                }
                let old = paths.incoming.appendingPathComponent("replaced-" + UUID().uuidString.prefix(18).lowercased())
                try DurableFile.rename(final, to: old)
                try DurableFile.rename(staged, to: final)
                try? Self.removeTree(old)
            }
        } else if replacing {
            try DurableFile.rename(staged, to: final)
        } else {
            // link(2) refuses a name that exists, where rename(2) would replace it.
            if link(staged.path, final.path) != 0 {
                guard errno == EEXIST else { throw DurableFile.failure(staged, "cannot link to \(final.path)") }
                try DurableFile.remove(staged)
                return false
            }
            try DurableFile.remove(staged)
        }
        try DurableFile.sync(folder)
        return true
    }

    public func takeBack(_ placement: MediaPlacement, to source: URL) throws(RollError) {
        let file = localFile(for: placement.key)
        if placement.tookSource {
            try DurableFile.rename(file, to: source)
        } else {
            try DurableFile.remove(file)
        }
    }

    public func remove(_ key: MediaKey) throws(RollError) {
        if key.kind.isSet { try Self.removeTree(localFile(for: key)) } else { try DurableFile.remove(localFile(for: key)) }
    }

    public func retire(_ key: MediaKey, as name: String) throws(RollError) -> Bool {
        let file = localFile(for: key)
        let trashed = paths.trash.appendingPathComponent(name)
        guard Glibc.rename(file.path, trashed.path) == 0 else {
            if errno == ENOENT { return false }
            throw DurableFile.failure(file, "cannot move to the trash")
        }
        try DurableFile.sync(file.deletingLastPathComponent())
        return true
    }

    public func purge(retired name: String) throws(RollError) {
        try DurableFile.remove(paths.trash.appendingPathComponent(name))
    }

    public func exists(_ key: MediaKey) -> Bool {
        access(localFile(for: key).path, F_OK) == 0
    }

    public func keys(_ kind: MediaKey.Kind) -> [MediaKey] {
        switch kind {
        case .recording: Self.listing(paths.recordings).filter { !$0.hasPrefix(".") }.map(MediaKey.recording)
        case .poster: Self.listing(paths.thumbs).filter { !$0.hasSuffix("-storyboard") }.map { MediaKey(kind: .poster, name: $0) }
        case .storyboard: Self.listing(paths.thumbs).filter { $0.hasSuffix("-storyboard") }.map { MediaKey(kind: .storyboard, name: $0) }
        case .ladder, .fastStart: Self.listing(place(of: kind)).map { MediaKey(kind: kind, name: $0) }
        case .upload: Self.listing(paths.uploads).filter { !$0.hasPrefix(".") }.map { MediaKey(kind: .upload, name: $0) }
        }
    }

    public func append(to key: MediaKey, at offset: Int64) throws(RollError) -> any MediaAppender {
        let file = localFile(for: key), folder = place(of: key.kind)
        try Self.makeFolder(folder)
        let created = access(file.path, F_OK) != 0
        let appender = try FileAppender(file: file)
        // Its name durable with it: a synced part in a folder that forgot it would be lost.
        if created { try DurableFile.sync(folder) }
        return appender
    }

    public func size(of key: MediaKey) -> (bytes: Int64, modified: Date)? {
        var info = stat()
        guard stat(localFile(for: key).path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
    }

    public func alias(_ key: MediaKey, as name: String) throws(RollError) -> MediaKey {
        let other = MediaKey(kind: key.kind, name: name)
        let source = localFile(for: key), target = localFile(for: other)
        try DurableFile.remove(target)
        guard link(source.path, target.path) == 0 else { throw DurableFile.failure(target, "cannot link \(source.path)") }
        return other
    }

    public func recording(sharingBytesOf key: MediaKey) -> MediaKey? {
        var info = stat()
        guard stat(localFile(for: key).path, &info) == 0, info.st_nlink > 1 else { return nil }
        return keys(.recording).first { recording in
            var other = stat()
            return lstat(localFile(for: recording).path, &other) == 0 && other.st_ino == info.st_ino && other.st_dev == info.st_dev
        }
    }

    public func retired() -> [String] { Self.listing(paths.trash) }

    public func incomplete() -> [String] { Self.listing(paths.incoming) }

    public func discardIncomplete(_ name: String) throws(RollError) {
        try Self.removeTree(paths.incoming.appendingPathComponent(RollPaths.storedName(name)))
    }

    public func lastChange(ofIncomplete name: String) -> Date? {
        let staged = paths.incoming.appendingPathComponent(RollPaths.storedName(name)).path
        let inside = Self.listing(URL(fileURLWithPath: staged)).map { staged + "/" + $0 }
        return ([staged] + inside).compactMap { path -> Date? in
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }.max()
    }

    /// Makes `folder` (and its parents) if missing.
    private static func makeFolder(_ folder: URL) throws(RollError) {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw RollError.cannotCreate(path: folder.path, reason: error.localizedDescription)
        }
    }

    /// Removes a file or a folder with all it holds; one already gone is fine.
    private static func removeTree(_ url: URL) throws(RollError) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        do { try FileManager.default.removeItem(atPath: url.path) } catch {
            throw RollError.io(path: url.path, reason: "cannot remove: \(error.localizedDescription)")
        }
    }

    private static func listing(_ dir: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    }
}
