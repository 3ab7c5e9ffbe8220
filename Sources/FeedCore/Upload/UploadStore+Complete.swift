import Foundation

extension UploadStore {
    /// Appends one PATCH's bytes: checks the offset, lets `body` write through an
    /// ``UploadWriter``, fsyncs, and once every byte is in adds the upload to the roll before
    /// returning (so the reply to the last PATCH comes with the upload `done` or `failed`).
    ///
    /// A `body` that throws (the client went away) keeps the bytes written so far: the client
    /// resumes from them. An overflowing one keeps none of this PATCH's bytes.
    /// - Parameters:
    ///   - offset: the client's `Upload-Offset`.
    ///   - declaredLength: the request's `Content-Length`, when it has one.
    /// - Throws: ``UploadError/unknownUpload(_:)``, ``UploadError/busy(id:)``,
    ///   ``UploadError/offsetMismatch(id:expected:given:)``, ``UploadError/exceedsLength(id:length:offset:)``,
    ///   ``UploadError/roll(_:)``, or what `body` throws.
    public func patch(id: String, offset: Int64, declaredLength: Int64?,
                      body: (UploadWriter) async throws -> Void) async throws -> Upload {
        guard Self.isValid(id) else { throw UploadError.unknownUpload(id) }
        return try await holding(id) { claim in
            let current = try await upload(id: id, claimed: true)
            guard offset == current.offset else { throw UploadError.offsetMismatch(id: id, expected: current.offset, given: offset) }
            if let declaredLength, declaredLength > current.length - offset {
                throw UploadError.exceedsLength(id: id, length: current.length, offset: offset)
            }
            switch current.state {
            case .done, .failed: return current
            case .processing: return await complete(claim)
            case .uploading: break
            }
            let writer = try UploadWriter(id: id, media: media, offset: offset, length: current.length)
            claim.whenLost { writer.revoke() }
            // Before the first byte: until then every server's HEAD says `offset` at most.
            claim.reportSynced { writer.synced }
            guard try await records.renewUpload(id: id, token: claim.token, for: claimLease, synced: offset) else {
                throw UploadError.busy(id: id)
            }
            writing.withLock { $0[id] = writer }
            var failure: (any Error)?
            do { try await body(writer) } catch { failure = error }
            let finished = Result { () throws(UploadError) in try writer.finish() }
            writing.withLock { _ = $0.removeValue(forKey: id) }
            _ = try finished.get()
            if let failure { throw failure }
            guard !claim.isLost else { throw UploadError.busy(id: id) }
            let now = try await upload(id: id, claimed: true)
            return now.state == .processing ? await complete(claim) : now
        }
    }

    /// Finishes every complete upload that no request is working on: a crash (of any server)
    /// left it complete but not yet in the roll. Run at start and at every sweep. Also moves
    /// the `<id>.json` records of earlier versions into the catalog, once.
    /// - Returns: those uploads, now `done` or `failed`.
    public func recover() async -> [Upload] {
        await importFileRecords()
        guard let all = try? await records.uploadRecords(phase: .uploading) else { return [] }
        var finished: [Upload] = []
        for record in all where !record.held && upload(record).state == .processing {
            let done = try? await holding(record.id) { claim in
                try await upload(id: record.id, claimed: true).state == .processing ? await complete(claim) : nil
            }
            if let done { finished.append(done) }
        }
        return finished
    }

    /// Adds a complete upload (claimed by the caller) to the roll and records the outcome.
    func complete(_ claim: UploadClaim) async -> Upload {
        let id = claim.id
        guard var record = try? await record(id) else {
            let now = clock()
            return Upload(id: id, length: 0, offset: 0, metadata: UploadMetadata(), created: now, expires: now,
                          state: .failed(reason: UploadError.unknownUpload(id).description))
        }
        let metadata = (try? UploadMetadata(header: record.metadata)) ?? UploadMetadata()
        let part = MediaKey.upload(id: id)
        // Named by what the bytes are, not by the client's filename (which only fills in for a
        // container the sniffer does not know): the name sets the Content-Type it is served with.
        let ext = ContainerSniffer.fileExtension(of: media.localFile(for: part).path) ?? metadata.fileExtension
        // A crash after an earlier attempt moved the bytes into the roll but before its row:
        // that recording is the part's own bytes.
        let earlier = media.recording(sharingBytesOf: part)?.name
        var link: MediaKey?
        do throws(RollError) {
            let named = try media.alias(part, as: "\(id).\(ext)")
            link = named
            var options = AddOptions(mode: .move, title: metadata.title, owner: record.owner)
            // The client's name for it (its last component), not the id it was stored under.
            options.originalName = metadata.filename.flatMap { $0.split(separator: "/").last.map(String.init) }
            let added = try await roll.add([media.localFile(for: named).path], options: options)
            record.phase = .done
            record.recordingID = added.first?.id
            if let earlier, earlier != added.first?.fileName {
                try? roll.media.remove(.recording(earlier))
            }
        } catch {
            switch error {
            case let .duplicate(_, existing):
                record.phase = .done
                record.recordingID = existing
            case let .notMedia(_, reason):
                record.phase = .failed
                record.error = RollError.notMedia(path: metadata.filename ?? id, reason: reason).description
            default:
                record.phase = .failed
                record.error = error.description
            }
        }
        if let link { try? media.remove(link) }
        record.finished = clock().timeIntervalSince1970
        guard (try? await records.finishUpload(record, token: claim.token)) == true else {
            // The claim was lost (another server finished it) or the catalog failed: what the
            // catalog holds is the answer; the part stays for the next attempt.
            guard let now = try? await self.record(id) else { return upload(record) }
            return upload(now)
        }
        try? media.remove(part)
        let finished = upload(record)
        _ = try? await roll.emit(.upload(finished))
        if let then = completion.withLock({ $0 }) { await then(finished, metadata) }
        return finished
    }


    /// Moves each `<id>.json` record that earlier versions of feed kept beside the bytes into the catalog, then
    /// removes the file; one already in the catalog only loses its file.
    func importFileRecords() async {
        for key in media.keys(.upload) where key.name.hasSuffix(".json") {
            let id = String(key.name.dropLast(5)), file = media.localFile(for: key)
            guard Self.isValid(id), let data = try? Data(contentsOf: file),
                  let record = try? JSONDecoder().decode(UploadRecord.self, from: data), record.id == id else { continue }
            let known: UploadRecord?
            do { known = try await records.uploadRecord(id: id) } catch { continue }
            if known == nil {
                do { try await records.insertUpload(record) } catch { continue }
            }
            try? media.remove(key)
        }
    }
}
