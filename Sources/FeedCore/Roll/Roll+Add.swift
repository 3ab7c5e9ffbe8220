import Foundation

extension Roll {
    /// Adds the video files at `paths`, in order. Every file is probed before anything is
    /// copied, so one that is not a video refuses the whole call with nothing added.
    ///
    /// - Parameters:
    ///   - added: called after each file lands, with its new recording.
    ///   - isCancelled: polled before each file; once true, the files not started yet are
    ///     skipped and what landed so far is returned.
    /// - Throws: ``RollError/notMedia(path:reason:)``, ``RollError/missingFile(path:)``,
    ///   ``RollError/duplicate(path:existingID:)`` (files before it stay added), ``RollError/io(path:reason:)``.
    @discardableResult
    public func add(_ paths: [String], options: AddOptions = AddOptions(),
                    added: (Recording) -> Void = { _ in },
                    isCancelled: () -> Bool = { false }) async throws(RollError) -> [Recording] {
        var result: [Recording] = []
        try await add(paths, options: options, skippingDuplicates: false, isCancelled: isCancelled) { outcome in
            if case let .added(recording) = outcome {
                added(recording)
                result.append(recording)
            }
        }
        return result
    }

    /// Adds the video files at `paths`, in order, as ``add(_:options:added:isCancelled:)`` does,
    /// except that a file whose bytes are already in the roll (or earlier in `paths`) is
    /// skipped and the batch goes on: each file handled ends in one ``AddOutcome``.
    ///
    /// - Parameters:
    ///   - isCancelled: polled before each file; once true, the files not started yet are
    ///     left out and the outcomes so far are returned.
    ///   - outcome: called once per file handled, in order, as soon as it is settled.
    /// - Returns: one outcome per file handled, in order.
    /// - Throws: as ``add(_:options:added:isCancelled:)`` but never ``RollError/duplicate(path:existingID:)``;
    ///   after a failure the outcomes reported so far stand.
    @discardableResult
    public func addSkippingDuplicates(_ paths: [String], options: AddOptions = AddOptions(),
                                      isCancelled: () -> Bool = { false },
                                      outcome: (AddOutcome) -> Void = { _ in }) async throws(RollError) -> [AddOutcome] {
        var result: [AddOutcome] = []
        try await add(paths, options: options, skippingDuplicates: true, isCancelled: isCancelled) {
            outcome($0)
            result.append($0)
        }
        return result
    }

    private func add(_ paths: [String], options: AddOptions, skippingDuplicates: Bool, isCancelled: () -> Bool,
                     outcome: (AddOutcome) -> Void) async throws(RollError) {
        var probed: [(URL, RecordingMedia)] = []
        for path in paths {
            // "" would name the current folder.
            guard !path.isEmpty else { throw RollError.invalidArgument("an empty file name is not a file; nothing was added") }
            let url = Roll.absolute(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw RollError.missingFile(path: path)
            }
            if isDirectory.boolValue { throw RollError.notMedia(path: path, reason: "is a folder") }
            probed.append((url, try prober.probe(path: url.path)))
        }
        for (url, media) in probed {
            if isCancelled() { break }
            do {
                outcome(.added(try await add(url, media: media, options: options)))
            } catch let .duplicate(path, existingID) where skippingDuplicates {
                outcome(.duplicate(path: path, existingID: existingID))
            }
        }
    }

    /// Adds one file whose media facts are known.
    ///
    /// The order makes every crash point explainable: the bytes go to `.incoming/` (garbage
    /// if we die), are fsync'd, renamed into `recordings/` (an orphan if we die: verify
    /// adopts it), and only then is the row inserted. The original is deleted (for a `move`
    /// that had to copy) only after the row is committed.
    func add(_ source: URL, media: RecordingMedia, options: AddOptions) async throws(RollError) -> Recording {
        let lock = try FileLock(paths.lock, exclusive: false)
        defer { lock.release() }
        let name = Roll.newFileName(extension: source.pathExtension)
        try await options.stage?(name)
        // The bytes first (staged, checked for a duplicate, published), then the row.
        let placed = try await self.media.put(.recording(name), from: source, mode: options.mode) { sha256, _ throws(RollError) in
            try await refuseDuplicate(sha256, source, options)
        }
        // A name alone stays one: never resolved against this process's folder.
        let original = options.originalName.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: "/")) } ?? source
        let recording = Recording(fileName: name, originalPath: options.originalName ?? source.path, createdAt: Date(), media: media,
                                  bytes: placed.bytes, sha256: placed.sha256, sources: options.sources,
                                  stackOptions: options.stackOptions, title: TitleTemplate.title(options.title, for: original),
                                  owner: options.owner)
        let inserted: Recording
        do {
            if let commit = options.commit {
                inserted = try await commit(recording)
            } else {
                inserted = try await catalog.insert(recording, refusingDuplicates: !options.allowDuplicate)
            }
        } catch {
            // Another process added the same bytes meanwhile: take ours back out (a moved file
            // back to where it was).
            if case .duplicate = error, placed.tookSource {
                try? self.media.takeBack(placed, to: source)
            } else if options.commit == nil || Self.definitelyRefused(error) {
                try? self.media.remove(placed.key)
            }
            // Else a job's commit failed without saying whether it committed (a dropped
            // connection, a deadline): the file stays. If the row was written it is the
            // recording's; if not, the job's row still names it as staged and the job queue's
            // clean-up removes it (`JobStore.abandonedOutputs`).
            throw error
        }
        if placed.copiedForMove { try DurableFile.remove(source) }
        return inserted
    }

    static func definitelyRefused(_ error: RollError) -> Bool {
        switch error {
        case .leaseLost, .duplicate: true
        default: false
        }
    }

    private func refuseDuplicate(_ sha256: String, _ source: URL, _ options: AddOptions) async throws(RollError) {
        guard !options.allowDuplicate else { return }
        if let existing = try await catalog.recordingID(sha256: sha256, owner: options.owner) {
            throw RollError.duplicate(path: source.path, existingID: existing)
        }
    }

    /// `20261121-201027-1a2b3c4d5e6f7a8b.mp4`: sortable, unique, keeps the original extension.
    static func newFileName(extension ext: String) -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                           Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let suffix = ext.isEmpty ? "mp4" : ext.lowercased()
        return "\(stamp)-\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()).\(suffix)"
    }

    /// `url` with every symbolic link in it resolved (itself if that fails).
    static func resolved(_ url: URL) -> URL {
        guard let real = realpath(url.path, nil) else { return url }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real))
    }

    /// Whether `url` itself (not a folder above it) is a symbolic link.
    static func isSymbolicLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// `path` made absolute against the current folder, `..` resolved.
    static func absolute(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .standardizedFileURL.absoluteURL
    }
}
