import FeedAccess
import FeedCore

extension FeedService {
    /// The recording `id` if `caller` may see it; else the same 404 as an id no row has.
    func recording(id text: String, for caller: Caller) async throws -> Recording {
        let recording = try await roll.recording(id: text)
        guard caller.sees(recording.owner) else { throw RollError.unknownID(text) }
        return recording
    }

    /// The upload `id` if `caller` may see it; else the same 404 as an unknown upload.
    func upload(id: String, for caller: Caller) async throws -> Upload {
        let upload = try await uploads.upload(id: id)
        guard caller.sees(upload.owner) else { throw UploadError.unknownUpload(id) }
        return upload
    }

    /// Refuses a job source `caller` may not see with the 404 a missing one gets. An admin (and
    /// an open server) sees everything: nothing is read, and the request's own checks speak.
    func check(_ source: JobSource, for caller: Caller) async throws {
        guard !caller.isAdmin else { return }
        switch source {
        case let .recording(id): _ = try await recording(id: String(id), for: caller)
        case let .upload(id): _ = try await upload(id: id, for: caller)
        }
    }
}
