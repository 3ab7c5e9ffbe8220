/// Why a live stream's recording could not be turned into a progressive MP4: its file cannot be
/// read, is not a fragmented MP4 feed can flatten (its init segment is missing or damaged), holds
/// no whole fragment with a sample, or the output cannot be written. Every case names the file.
public enum LiveRecordingError: FeedFailure, Equatable {
    /// The recording at `path` does not exist.
    case missingFile(path: String)
    /// The recording at `path` cannot be opened or read: `reason` is the system's message.
    case cannotRead(path: String, reason: String)
    /// The output at `path` cannot be created (its folder is missing or read-only).
    case cannotCreate(path: String, reason: String)
    /// Writing the output at `path` failed part way (disk full …); nothing is left at `path`.
    case cannotWrite(path: String, reason: String)
    /// The file at `path` is not a fragmented MP4 with a whole init segment: no `moov`, a `moov`
    /// without `mvex`, or a box in it that lies about its size; `reason` says which.
    case notFragmented(path: String, reason: String)
    /// The file at `path` has an init segment but no whole fragment with a video or audio sample.
    case noMedia(path: String)

    /// ``cannotWrite(path:reason:)`` for `path` from a failed write's error (its reason, the path
    /// said once).
    static func writing(_ path: String, _ error: RollError) -> LiveRecordingError {
        switch error {
        case let .io(_, reason), let .cannotCreate(_, reason): .cannotWrite(path: path, reason: reason)
        default: .cannotWrite(path: path, reason: error.description)
        }
    }

    public var kind: FailureKind {
        switch self {
        case .missingFile: .missingInput
        case .cannotRead, .cannotWrite: .io
        case .cannotCreate: .cannotCreate
        case .notFragmented, .noMedia: .invalidData
        }
    }

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such recording"
        case .cannotRead(let path, let reason): "\(path): cannot read the recording: \(reason)"
        case .cannotCreate(let path, let reason): "\(path): cannot create the MP4: \(reason)"
        case .cannotWrite(let path, let reason): "\(path): cannot write the MP4: \(reason)"
        case .notFragmented(let path, let reason): "\(path): not a fragmented MP4 recording: \(reason)"
        case .noMedia(let path): "\(path): the recording holds no whole fragment with a frame; nothing to keep"
        }
    }
}
