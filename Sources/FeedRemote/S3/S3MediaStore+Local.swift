import FeedCore
import Foundation
import NIOCore

extension S3MediaStore {
    /// Where `key`'s local copy is kept: `<cache>/<folder>/<name>`.
    func cached(_ key: MediaKey) -> URL {
        cache.appendingPathComponent(Self.folder(key.kind), isDirectory: true)
            .appendingPathComponent(RollPaths.storedName(key.name), isDirectory: key.kind.isSet)
    }

    /// Staged work: `<cache>/.staged/`.
    var staging: URL { cache.appendingPathComponent(".staged", isDirectory: true) }

    /// The entity tag a recording's local copy was fetched at: `.<name>.etag` beside it.
    func tagFile(_ key: MediaKey) -> URL {
        let local = cached(key)
        return local.deletingLastPathComponent().appendingPathComponent(".\(local.lastPathComponent).etag")
    }

    /// A local copy of `key`'s medium, downloaded on first use (a set: every member); the path
    /// even when there is nothing (see ``MediaStore/localFile(for:)``). A recording's copy is
    /// checked against the object's entity tag each time (one `HEAD`): a recording replaced in
    /// the bucket (`verify --fix` records one as it is now) is fetched again, never read stale.
    public func localFile(for key: MediaKey) -> URL {
        let local = cached(key)
        let client = client, objectKey = objectKey(key), marker = marker(key), isSet = key.kind.isSet
        var current: String?
        if key.kind == .recording {
            let head: S3Object?
            do { head = try wait { () throws(S3Error) in try await client.head(objectKey) } } catch { return local }
            guard let head else {
                try? FileManager.default.removeItem(at: local)
                return local
            }
            current = head.etag
            let kept = (try? String(contentsOf: tagFile(key), encoding: .utf8)) ?? ""
            if current != nil, kept == current, FileManager.default.fileExists(atPath: local.path) { return local }
            try? FileManager.default.removeItem(at: local)
        } else if FileManager.default.fileExists(atPath: local.path) {
            return local
        } else if key.kind == .upload {
            // All its bytes are in (it is read to be added): its multipart upload becomes an object.
            try? finish(key)
        }
        let temporary = local.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).part", isDirectory: isSet)
        do {
            try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Streamed to disk (a recording can be larger than memory), to a temporary name.
            let found: Bool = try wait { () throws(S3Error) -> Bool in
                if !isSet { return try await client.download(objectKey, to: temporary) }
                guard try await client.head(marker) != nil else { return false }
                for object in try await client.list(prefix: objectKey + "/") where !object.key.hasSuffix("/.published") {
                    let file = temporary.appendingPathComponent(String(object.key.dropFirst(objectKey.count + 1)))
                    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    _ = try await client.download(object.key, to: file)
                }
                return true
            }
            guard found else {
                try? FileManager.default.removeItem(at: temporary)
                return local
            }
            if rename(temporary.path, local.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
            if let current { try? Data(current.utf8).write(to: tagFile(key)) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
        return local
    }

    /// Writes `bytes` as `file`, whole: a temporary name, then renamed over it.
    static func replaceLocal(_ file: URL, with bytes: [UInt8]) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).part")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    public func stage(_ key: MediaKey) throws(RollError) -> URL {
        do { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true) } catch {
            throw RollError.cannotCreate(path: staging.path, reason: error.localizedDescription)
        }
        return staging.appendingPathComponent("\(key.kind.rawValue)-\(RollPaths.storedName(key.name))-\(UUID().uuidString)", isDirectory: key.kind.isSet)
    }

    /// Uploads what `staged` holds as `key`'s medium: a set's members with segments before
    /// playlists and the marker last. Replacing removes the old medium first.
    @discardableResult
    public func publish(_ key: MediaKey, from staged: URL, replacing: Bool) throws(RollError) -> Bool {
        defer { try? FileManager.default.removeItem(at: staged) }
        if exists(key) {
            guard replacing else { return false }
            try remove(key)
        }
        let client = client, objectKey = objectKey(key), marker = marker(key)
        if !key.kind.isSet {
            // From disk in parts (a fast-start copy is as large as its recording).
            try blocking.run { () async throws(RollError) in
                let (_, finish) = try await self.upload(staged, to: objectKey, contentType: Self.contentType(key.name))
                guard await finish(true) else { throw RollError.io(path: self.shown(key), reason: "the store did not complete the upload") }
            }
        } else {
            let members = Self.files(under: staged).sorted { Self.publishOrder($0) < Self.publishOrder($1) }
            var playlists = false
            for member in members {
                if !playlists, Self.publishOrder(member).0 == 1 {
                    playlists = true
                    CrashPoint.reach(.publishMembers)
                }
                let bytes: [UInt8]
                do { bytes = Array(try Data(contentsOf: staged.appendingPathComponent(member))) } catch {
                    throw RollError.io(path: staged.appendingPathComponent(member).path, reason: "cannot read what was made")
                }
                let type = Self.contentType(member)
                try wait { () throws(S3Error) in _ = try await client.put("\(objectKey)/\(member)", body: ByteBuffer(bytes: bytes), contentType: type) }
            }
            CrashPoint.reach(.publishPlaylists)
            try wait { () throws(S3Error) in _ = try await client.put(marker, body: ByteBuffer()) }
        }
        // The made files are the medium's local copy too.
        let local = cached(key)
        try? FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: local)
        _ = rename(staged.path, local.path)
        return true
    }

    /// Members before the files that name them: segments and media, then playlists and manifests.
    static func publishOrder(_ name: String) -> (Int, String) {
        let lower = name.lowercased()
        return (lower.hasSuffix(".m3u8") || lower.hasSuffix(".mpd") ? 1 : 0, name)
    }

    /// Paths of the regular files under `folder`, relative to it.
    static func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [String] = []
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        return found
    }

    /// Staged work left on local disk (`staged:NAME`), and multipart uploads the store holds open
    /// under the prefix (`multipart:UPLOAD-ID:KEY`): puts a crash cut short.
    public func incomplete() -> [String] {
        let local = ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).map { "staged:\($0)" }
        let client = client, prefix = location.key("")
        let open = (try? wait { () throws(S3Error) in try await client.listMultipartUploads(prefix: prefix) }) ?? []
        // A tus upload in progress is the upload store's to expire, not a leftover.
        let uploads = Set(uploadsInProgress().map { location.key("uploads/\($0)") })
        return local + open.filter { !uploads.contains($0.key) }.map { "multipart:\($0.uploadID):\($0.key)" }
    }

    /// Removes staged work (`staged:NAME`, or the bare name of a folder ``stage(_:)`` gave) or
    /// aborts an open multipart upload (`multipart:…`).
    public func discardIncomplete(_ name: String) throws(RollError) {
        guard name.hasPrefix("multipart:") else {
            let local = name.hasPrefix("staged:") ? String(name.dropFirst(7)) : name
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(RollPaths.storedName(local)))
            return
        }
        let rest = name.dropFirst(10)
        guard let colon = rest.firstIndex(of: ":") else { return }
        let id = String(rest[..<colon]), key = String(rest[rest.index(after: colon)...]), client = client
        try wait { () throws(S3Error) in try await client.abortMultipartUpload(key, uploadID: id) }
    }

    public func lastChange(ofIncomplete name: String) -> Date? {
        if name.hasPrefix("staged:") {
            let url = staging.appendingPathComponent(RollPaths.storedName(String(name.dropFirst(7))))
            var newest = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
            for member in Self.files(under: url) {
                if let date = (try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(member).path)[.modificationDate]) as? Date {
                    newest = max(newest ?? date, date)
                }
            }
            return newest
        }
        // A put still going adds parts: its last change is its newest part's, not its start.
        let client = client, prefix = location.key("")
        return try? wait { () throws(S3Error) -> Date? in
            let open = try await client.listMultipartUploads(prefix: prefix)
            guard let upload = open.first(where: { "multipart:\($0.uploadID):\($0.key)" == name }) else { return nil }
            let parts = try await client.listParts(upload.key, uploadID: upload.uploadID) ?? []
            return (parts.compactMap(\.modified) + [upload.initiated].compactMap { $0 }).max()
        } ?? nil
    }
}
