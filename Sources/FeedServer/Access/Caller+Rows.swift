import FeedCore

/// Which rows a caller sees and what the rows it makes belong to. A user sees and changes their
/// own; an admin everyone's; a signed link the one file it was signed for. Another user's row
/// is answered exactly as one that does not exist (404), so ids say nothing of other users.
extension Caller {
    /// The owner of the rows this caller creates: the user; nil (the server's own) for the
    /// admin token and an open server.
    var rowOwner: String? { user }

    /// Whose likes and bookmarks: the user's; the empty owner's for the admin token, an open
    /// server and the CLI (which share them, as before there were users).
    var markOwner: String { user ?? "" }

    /// The owner a listing is filtered by: nil (everyone's) for an admin, else the user's own.
    var listedOwner: String? { isAdmin ? nil : (user ?? "") }

    /// Whether the caller may see and change a row of `owner`.
    func sees(_ owner: String?) -> Bool {
        if isAdmin { return true }
        if case .link = credential { return true }
        return user != nil && owner == user
    }
}

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
