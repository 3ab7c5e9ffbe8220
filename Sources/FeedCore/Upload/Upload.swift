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
}

/// `<id>.json`: what the store keeps of an upload besides its bytes. Written whole through a
/// temporary file and a rename, so a crash leaves the old or the new one, never half of one.
struct UploadRecord: Codable, Equatable {
    /// `uploading` until it is finished, then `done` or `failed`.
    enum Phase: String, Codable { case uploading, done, failed }

    var id: String
    var length: Int64
    /// The raw `Upload-Metadata`.
    var metadata: String
    /// Seconds since 1970.
    var created: Double
    var phase: Phase
    var recordingID: Int64?
    var error: String?
    /// Seconds since 1970 when it became done or failed.
    var finished: Double?

    enum CodingKeys: String, CodingKey {
        case id, length, metadata, created, phase = "state", recordingID = "recording_id", error, finished
    }
}
