import Foundation

/// One resumable upload as a client sees it: how far it got and what became of it.
public struct Upload: Sendable, Equatable {
    /// Where an upload is.
    public enum State: Sendable, Equatable {
        /// Bytes are still expected.
        case uploading
        /// Every byte is in; it is being probed, hashed and added to the roll.
        case processing
        /// It is in the roll as this recording (also when the same bytes already were).
        case done(recordingID: Int64)
        /// It was not added; `reason` says why (e.g. not a video file).
        case failed(reason: String)

        /// `uploading`, `processing`, `done` or `failed`.
        public var name: String {
            switch self {
            case .uploading: "uploading"
            case .processing: "processing"
            case .done: "done"
            case .failed: "failed"
            }
        }
    }

    /// 32 lowercase hex digits, made by the server.
    public var id: String
    /// The size the client declared (`Upload-Length`), in bytes.
    public var length: Int64
    /// Bytes received so far (`Upload-Offset`): the size of the partial file.
    public var offset: Int64
    /// The `Upload-Metadata` it was created with.
    public var metadata: UploadMetadata
    /// When it was created.
    public var created: Date
    /// When it is forgotten (its bytes and status removed) unless something happens first:
    /// ``UploadStore/expiry`` after the last byte received, or after it finished.
    public var expires: Date
    /// Where it is.
    public var state: State
    /// The user who created it (`feed serve`'s JWT `sub`); nil for the server's own.
    public var owner: String? = nil
}

/// What a catalog keeps of an upload besides its bytes (``UploadRecordStore``): its declared
/// length and metadata, when it was created, and what became of it.
public struct UploadRecord: Codable, Equatable, Sendable {
    /// `uploading` until it is finished, then `done` or `failed`.
    public enum Phase: String, Codable, Sendable { case uploading, done, failed }

    /// 32 lowercase hex digits.
    public var id: String
    /// The declared `Upload-Length`.
    public var length: Int64
    /// The raw `Upload-Metadata`.
    public var metadata: String
    /// Seconds since 1970.
    public var created: Double
    public var phase: Phase
    /// The recording it became (`done`).
    public var recordingID: Int64?
    /// Why it was not added (`failed`).
    public var error: String?
    /// Seconds since 1970 when it became done or failed.
    public var finished: Double?
    /// Whether a request (on any node) holds its claim now: set by the store when read, never written.
    public var held = false
    /// The user who created it; nil for the server's own. The recording it becomes is theirs.
    public var owner: String? = nil
    /// While a request holds it: the bytes that request has made durable (fsync'd), as it last
    /// said when renewing its claim; nil when none said (the part's size is then all durable).
    /// What another server's `HEAD` may report while the part also holds bytes not yet synced.
    public var synced: Int64? = nil

    /// A record; `held` and `synced` are the store's to set.
    public init(id: String, length: Int64, metadata: String, created: Double, phase: Phase,
                recordingID: Int64? = nil, error: String? = nil, finished: Double? = nil, held: Bool = false, owner: String? = nil,
                synced: Int64? = nil) {
        self.id = id
        self.length = length
        self.metadata = metadata
        self.created = created
        self.phase = phase
        self.recordingID = recordingID
        self.error = error
        self.finished = finished
        self.held = held
        self.owner = owner
        self.synced = synced
    }

    /// The keys of the `<id>.json` files earlier versions kept in `.uploads/` (imported once).
    enum CodingKeys: String, CodingKey {
        case id, length, metadata, created, phase = "state", recordingID = "recording_id", error, finished
    }
}
