import Foundation

extension Roll {
    /// The cache folder name of `recording`'s HLS ladder: `<id>-<first 12 hex of its SHA-256>-cmaf`,
    /// so a recording whose content changed (a `verify --fix` after an edit) is packaged anew.
    /// `-cmaf`: one track per segment, audio in a rendition of its own (and `manifest.mpd`); the
    /// ladders made before, audio muxed into every rung, are stale (`verify --fix` removes them).
    static func hlsName(_ recording: Recording) -> String { "\(recording.id)-\(recording.sha256.prefix(12))-cmaf" }

    /// The folder of `recording`'s cached HLS ladder (`master.m3u8` and one folder per rung),
    /// made with `options` on first use (`feed roll hls`, the server's `/roll/{id}/hls/`).
    ///
    /// Packaging writes into a hidden folder beside the cache entry and renames it into place,
    /// holding the roll's shared lock, so `verify` never mistakes it for a leftover. Two calls
    /// racing for the same recording both package; the second keeps the first one's folder.
    public func hls(of recording: Recording, options: HLSOptions = HLSOptions(),
                    isCancelled: () -> Bool = { false }) throws(HLSError) -> URL {
        if let cached = cachedHLS(of: recording) { return cached }
        let folder = paths.hls.appendingPathComponent(Self.hlsName(recording), isDirectory: true)
        do { try FileManager.default.createDirectory(at: paths.hls, withIntermediateDirectories: true) } catch {
            throw .cannotCreate(path: paths.hls.path, reason: error.localizedDescription)
        }
        let lock: FileLock
        do { lock = try FileLock(paths.lock, exclusive: false) } catch { throw .roll(error) }
        defer { lock.release() }
        let file = url(of: recording)
        guard access(file.path, R_OK) == 0 else { throw .roll(.missingFile(path: file.path)) }
        do {
            _ = try HLSPackager(input: file.path, output: folder.path, options: options).run(isCancelled: isCancelled)
        } catch .outputExists {
            // Another packager finished first: its ladder is as good.
        }
        return folder
    }

    /// The folder of `recording`'s cached HLS ladder, or nil when none is made yet.
    public func cachedHLS(of recording: Recording) -> URL? {
        let folder = paths.hls.appendingPathComponent(Self.hlsName(recording), isDirectory: true)
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent(HLSMaster.fileName).path) ? folder : nil
    }

    /// Deletes every cached HLS ladder of recording `id`.
    public func removeHLS(of id: Int64) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.hls.path)) ?? []
        for name in names where name.hasPrefix("\(id)-") {
            try? FileManager.default.removeItem(at: paths.hls.appendingPathComponent(name))
        }
    }

    /// Cache entries in `.hls/` that belong to no recording as it is now (removed, or its
    /// content changed), and packagings that never finished (`.<name>.part`).
    func staleHLS(rows: [Recording]) -> [String] {
        let current = Set(rows.map(Self.hlsName))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.hls.path)) ?? []
        return names.filter { !current.contains($0) }.sorted()
    }
}
