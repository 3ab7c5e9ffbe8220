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
    /// Packaging writes where the media store stages work and publishes the ladder whole,
    /// holding the roll's shared lock, so `verify` never mistakes it for a leftover. Two calls
    /// racing for the same recording both package; the second keeps the first one's ladder.
    public func hls(of recording: Recording, options: HLSOptions = HLSOptions(),
                    isCancelled: () -> Bool = { false }) throws(HLSError) -> URL {
        if let cached = cachedHLS(of: recording) { return cached }
        let key = MediaKey.ladder(Self.hlsName(recording))
        let lock: FileLock
        do { lock = try FileLock(paths.lock, exclusive: false) } catch { throw .roll(error) }
        defer { lock.release() }
        let file = url(of: recording)
        guard access(file.path, R_OK) == 0 else { throw .roll(.missingFile(path: file.path)) }
        do {
            let staged = try media.stage(key)
            _ = try HLSPackager(input: file.path, output: staged.path, options: options).run(isCancelled: isCancelled)
            try media.publish(key, from: staged, replacing: false)
        } catch let error as HLSError {
            throw error
        } catch let error as RollError {
            throw .roll(error)
        } catch {
            throw .cannotCreate(path: media.localFile(for: key).path, reason: "\(error)")
        }
        return media.localFile(for: key)
    }

    /// The folder of `recording`'s cached HLS ladder, or nil when none is made yet.
    public func cachedHLS(of recording: Recording) -> URL? {
        let key = MediaKey.ladder(Self.hlsName(recording))
        return media.exists(key) ? media.localFile(for: key) : nil
    }

    /// Deletes every cached HLS ladder of recording `id`.
    public func removeHLS(of id: Int64) {
        for key in media.keys(.ladder) where key.name.hasPrefix("\(id)-") { try? media.remove(key) }
    }

    /// Ladders that belong to no recording as it is now (removed, or its content changed), and
    /// packagings of older versions that never finished (`.<name>.part`).
    func staleHLS(rows: [Recording]) -> [String] {
        let current = Set(rows.map(Self.hlsName))
        return media.keys(.ladder).map(\.name).filter { !current.contains($0) }.sorted()
    }
}
