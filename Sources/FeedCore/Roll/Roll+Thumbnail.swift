import Foundation

extension Roll {
    /// The longest side of a poster frame, in pixels; smaller videos keep their size.
    public static let thumbnailMaxSide = 640

    /// The poster ``thumbnail(of:at:)`` made and cached, or nil when there is none yet (then
    /// making it means decoding: a caller on a server does that off its threads).
    public func cachedThumbnail(of recording: Recording, at seconds: Double? = nil) -> URL? {
        let key = posterKey(of: recording, at: seconds ?? recording.media.duration * 0.1)
        return media.exists(key) ? media.localFile(for: key) : nil
    }

    private func posterKey(of recording: Recording, at time: Double) -> MediaKey {
        .poster(id: recording.id, milliseconds: Int(saturating: (time * 1000).rounded()))
    }

    /// The JPEG poster frame of `recording` at `seconds` (default 10 % of its duration),
    /// made with FFmpeg's mjpeg encoder and cached as `recordings/.thumbs/<id>-<ms>.jpg`.
    ///
    /// The frame is upright at the video's display size, scaled down so its longest side
    /// is at most ``thumbnailMaxSide``.
    /// - Throws: ``RollError/invalidArgument(_:)`` for a time outside the recording,
    ///   ``RollError/notMedia(path:reason:)`` when it cannot be decoded.
    public func thumbnail(of recording: Recording, at seconds: Double? = nil) throws(RollError) -> URL {
        let facts = recording.media
        let time = try Self.frameTime(seconds, of: recording)
        let key = posterKey(of: recording, at: time)
        let url = media.localFile(for: key)
        if media.exists(key) { return url }
        let size = Roll.fit(width: facts.width, height: facts.height, maxWidth: Roll.thumbnailMaxSide, maxHeight: Roll.thumbnailMaxSide)
        let frame = try posterFrame(of: recording, at: time, width: size.width, height: size.height)
        let jpeg: [UInt8]
        do { jpeg = try ImageEncoder.jpeg(frame) } catch {
            if case .unavailable = error { throw RollError.media(error) }
            throw RollError.cannotCreate(path: url.path, reason: MediaRecordingProber.reason(error))
        }
        // Shared lock: fix never sweeps a poster being written.
        let lock = try FileLock(paths.lock, exclusive: false)
        defer { lock.release() }
        try media.write(jpeg, at: key)
        return url
    }

    /// Copies a poster to `path` (for `-o`).
    /// The time of the poster frame `seconds` asks for: 10 % of the duration when nil.
    /// - Throws: ``RollError/invalidArgument(_:)`` for a time outside the recording.
    public static func frameTime(_ seconds: Double?, of recording: Recording) throws(RollError) -> Double {
        let duration = recording.media.duration
        let time = seconds ?? duration * 0.1
        guard time >= 0, time <= duration else {
            throw RollError.invalidArgument("recording \(recording.id) is \(String(format: "%.3f", duration)) s long: cannot take a frame at \(time) s")
        }
        return time
    }

    /// - Throws: ``RollError/cannotCreate(path:reason:)``, or ``RollError/io(path:reason:)``
    ///   when it cannot be written (a full disk).
    public func copyThumbnail(_ cached: URL, to path: String) throws(RollError) -> URL {
        let target = Roll.absolute(path)
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: cached)) } catch { throw RollError.io(path: cached.path, reason: "cannot read") }
        do { try DurableFile.writeAtomically(bytes, to: target) } catch {
            throw DurableFile.outputFailure(error, path: path)
        }
        return target
    }

    /// One upright RGB frame of `recording` at `time`, scaled to `width`×`height`.
    func posterFrame(of recording: Recording, at time: Double, width: Int, height: Int) throws(RollError) -> Frame {
        let file = url(of: recording)
        do {
            let reader = try MediaReader(path: file.path)
            try reader.seek(to: time)
            if let frame = try reader.nextVideoFrame(width: width, height: height, format: .rgb24) { return frame }
            // Past the last decodable frame (a time at the very end): take the first one instead.
            try reader.seek(to: 0)
            if let frame = try reader.nextVideoFrame(width: width, height: height, format: .rgb24) { return frame }
            throw RollError.notMedia(path: file.path, reason: "no video frame")
        } catch let error as RollError {
            throw error
        } catch let error as MediaError {
            throw RollError(error, path: file.path)
        } catch {
            throw RollError.notMedia(path: file.path, reason: "\(error)")
        }
    }

    /// The largest size with the aspect ratio of `width`×`height` that fits the box (never larger than the original).
    static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (maxWidth, maxHeight) }
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

extension Roll {
    /// The cached storyboard of `recording` (``Storyboard``): a folder holding `storyboard.jpg`
    /// and `storyboard.vtt` (`recordings/.thumbs/<id>-storyboard/`), or nil when it is not made yet.
    public func cachedStoryboard(of recording: Recording) -> URL? {
        let key = MediaKey.storyboard(id: recording.id)
        return media.exists(key) ? media.localFile(for: key) : nil
    }

    /// The folder of `recording`'s storyboard, made on first use (FFmpeg: a decode per tile) and
    /// cached beside its posters, so `verify` counts it stale once the recording is gone.
    /// - Throws: ``RollError/notMedia(path:reason:)`` when it cannot be decoded,
    ///   ``RollError/cannotCreate(path:reason:)``.
    public func storyboard(of recording: Recording) throws(RollError) -> URL {
        if let cached = cachedStoryboard(of: recording) { return cached }
        let key = MediaKey.storyboard(id: recording.id)
        let lock = try FileLock(paths.lock, exclusive: false)
        defer { lock.release() }
        let staged = try media.stage(key)
        do {
            try Storyboard.write(path: url(of: recording).path, folder: staged.path)
        } catch {
            try? media.discardIncomplete(staged.lastPathComponent)
            if case .unavailable = error { throw RollError.media(error) }
            if case .cannotCreate(let path, let reason) = error { throw RollError.cannotCreate(path: path, reason: reason) }
            throw RollError(error, path: url(of: recording).path)
        }
        try media.publish(key, from: staged, replacing: false)
        return media.localFile(for: key)
    }
}
