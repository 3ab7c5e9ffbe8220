/// Everything that can go wrong with a resumable upload. Each message is one line naming
/// the upload; its kind gives the status tus asks for (413 for too large, 409 for a wrong offset).
public enum UploadError: FeedFailure, Equatable {
    /// No upload has this id (never made, deleted, or expired), or the text is not an id at all.
    case unknownUpload(String)
    /// `Upload-Length` is over the server's limit (tus: 413).
    case tooLarge(length: Int64, limit: Int64)
    /// The bytes sent would go past the upload's declared length (tus: 413); none of them were kept.
    case exceedsLength(id: String, length: Int64, offset: Int64)
    /// The client's offset is not the server's (tus: 409): it must ask with HEAD and resume from there.
    case offsetMismatch(id: String, expected: Int64, given: Int64)
    /// Another request is writing to this upload (or finishing it) right now.
    case busy(id: String)
    /// `Upload-Length` or `Upload-Metadata` is malformed.
    case invalidRequest(String)
    /// A file step failed.
    case roll(RollError)

    public var kind: FailureKind {
        switch self {
        case .unknownUpload: .notFound
        case .tooLarge, .exceedsLength: .tooLarge
        case .invalidRequest: .usage
        case .offsetMismatch, .busy: .conflict
        case let .roll(error): error.kind
        }
    }

    public var description: String {
        switch self {
        case let .unknownUpload(id):
            "uploads: no upload with id \(Self.shown(id)) (it never existed, was deleted or expired)"
        case let .tooLarge(length, limit):
            "uploads: Upload-Length \(length) is over this server's limit of \(limit) bytes"
        case let .exceedsLength(id, length, offset):
            "uploads/\(id): these bytes would go past Upload-Length \(length) (offset \(offset)); none were kept"
        case let .offsetMismatch(id, expected, given):
            "uploads/\(id): Upload-Offset \(given) is not the upload's offset \(expected); ask with HEAD and resume from there"
        case let .busy(id):
            "uploads/\(id): another request is writing to this upload; retry when it is done"
        case let .invalidRequest(message):
            message
        case let .roll(error):
            error.description
        }
    }

    /// An id as the message shows it: short, quoted when it is not plain.
    private static func shown(_ text: String) -> String {
        let cut = text.count > 64 ? String(text.prefix(64)) + "…" : text
        let plain = !cut.isEmpty && cut.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        return plain ? cut : String(reflecting: cut)
    }
}
