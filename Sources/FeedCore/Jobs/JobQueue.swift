import Foundation

/// The job use cases every front end calls: `feed jobs add|cancel|retry` and `POST /jobs/stack`,
/// `DELETE /jobs/{id}`. Each decides once, in FeedCore, what is accepted and what it says when
/// it is not, so the CLI and the server refuse the same requests with the same message.
public struct JobQueue: Sendable {
    /// The roll whose catalog holds the jobs and whose recordings they read.
    public let roll: Roll
    /// Finished uploads a stack may name as a source.
    public let uploads: UploadStore

    /// The queue of `roll`, reading upload sources from `uploads`.
    public init(roll: Roll, uploads: UploadStore) {
        self.roll = roll
        self.uploads = uploads
    }

    /// The queue of `roll`, reading upload sources from its uploads as they are (a command that
    /// queues or cancels, not a server that takes uploads).
    public init(roll: Roll) {
        self.init(roll: roll, uploads: UploadStore(roll: roll, maxSize: .max, expiry: 86_400))
    }

    /// Checks `request` (``JobRequest/validate(in:)``) and queues it for `owner` (nil: the
    /// server's own).
    /// - Returns: the queued job, with its id.
    public func enqueue(_ request: JobRequest, maxAttempts: Int = JobPolicy.defaultMaxAttempts, owner: String? = nil) async throws -> Job {
        try await request.validate(in: self)
        return try await roll.catalog.enqueue(request, maxAttempts: maxAttempts, owner: owner)
    }

    /// Cancels job `id` in one statement (a running job's lease is lost: its worker stops at its
    /// next renewal, or at once when it is a runner of this process that is told).
    /// - Returns: the job as cancelled.
    /// - Throws: ``JobError/notFound(id:)``; ``JobError/notCancellable(id:state:)`` when it had
    ///   ended, or another caller cancelled it first.
    public func cancel(id: Int64) async throws -> Job {
        guard let update = try await roll.catalog.cancel(id: id) else { throw JobError.notFound(id: String(id)) }
        guard update.changed else { throw JobError.notCancellable(id: id, state: update.job.state) }
        // Every cancel comes through here (`feed jobs cancel`, `DELETE /jobs/{id}`): its event too.
        _ = try? await roll.emit(.job(.jobCancelled, update.job))
        return update.job
    }

    /// Queues a failed, dead or cancelled job again, its attempts reset, in one statement.
    /// - Returns: the job as queued.
    /// - Throws: ``JobError/notFound(id:)``; ``JobError/notRetryable(id:state:)``.
    public func retry(id: Int64) async throws -> Job {
        guard let update = try await roll.catalog.retry(id: id) else { throw JobError.notFound(id: String(id)) }
        guard update.changed else { throw JobError.notRetryable(id: id, state: update.job.state) }
        return update.job
    }

    /// Job `id`.
    /// - Throws: ``JobError/notFound(id:)``.
    public func job(id: Int64) async throws -> Job {
        guard let job = try await roll.catalog.job(id: id) else { throw JobError.notFound(id: String(id)) }
        return job
    }

    /// The recording a source names: itself, or the one a finished upload became.
    /// - Throws: ``RollError/unknownID(_:)``, the upload store's errors, or
    ///   ``JobError/invalid(kind:_:)`` for an upload that failed or is not finished.
    public func recording(of source: JobSource) async throws -> Recording {
        switch source {
        case let .recording(id):
            return try await roll.recording(id: id)
        case let .upload(id):
            switch try await uploads.upload(id: id).state {
            case let .done(recording): return try await roll.recording(id: recording)
            case let .failed(reason): throw JobError.invalid(kind: .stack, "upload \(id) failed: \(reason)")
            case .uploading, .processing: throw JobError.invalid(kind: .stack, "upload \(id) is not finished yet")
            }
        }
    }

    /// A local file of the bytes a source names, for FFmpeg: the stored file in a folder, a copy
    /// fetched from an object store (see ``MediaStore/localFile(for:)``).
    /// - Throws: as ``recording(of:)``.
    public func path(of source: JobSource) async throws -> String {
        roll.url(of: try await recording(of: source)).path
    }
}
