/// Everything that can go wrong in the camera roll. Each message is one line that names
/// the file or id involved and, where there is one, what to do about it.
public enum RollError: FeedFailure, Equatable {
    /// `roll.sqlite` is not a SQLite database or is damaged; it is left untouched.
    case corruptDatabase(path: String, reason: String)
    /// `roll.sqlite` was written by a newer feed (unknown migrations); it is left untouched.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The database could not be opened, read or written.
    case database(path: String, reason: String)
    /// No recording has this id.
    case unknownID(String)
    /// A file given to `add` does not exist.
    case missingFile(path: String)
    /// A file given to `add` is not a playable video.
    case notMedia(path: String, reason: String)
    /// The same bytes are already in the roll as recording `existingID`.
    case duplicate(path: String, existingID: Int64)
    /// Reading, copying, renaming or removing a file failed.
    case io(path: String, reason: String)
    /// An output file cannot be written.
    case cannotCreate(path: String, reason: String)
    /// The roll holds no recording (nothing to draw).
    case emptyRoll
    /// An argument is out of range (e.g. a time past the end).
    case invalidArgument(String)
    /// A named option is out of range; `problem` says what is accepted ("must be 1 or more").
    case invalidOption(String, problem: String)
    /// The media layer itself failed, not the file (FFmpeg's libraries cannot be loaded).
    case media(MediaError)
    /// The media store failed on its own account (an object store that refused the keys, is
    /// unreachable or is missing its bucket): its one-line message, and what kind of failure.
    case store(message: String, kind: FailureKind)
    /// A worker no longer holds job `jobID` (its lease expired and was taken back, or the job was
    /// cancelled): what it made is discarded and the job is left to its new holder.
    case leaseLost(jobID: Int64)

    /// What a media failure on the file at `path` means for the roll: a missing file, a
    /// broken media layer (kept as is: unavailable), or a file that is not a playable video.
    init(_ error: MediaError, path: String) {
        switch error {
        case .missingFile: self = .missingFile(path: path)
        case let .unreadable(_, reason): self = .io(path: path, reason: reason)
        case .unavailable, .interrupted: self = .media(error)
        default: self = .notMedia(path: path, reason: MediaRecordingProber.reason(error))
        }
    }

    public var kind: FailureKind {
        switch self {
        case .corruptDatabase, .newerSchema, .notMedia, .emptyRoll: .invalidData
        case .unknownID: .notFound
        case .duplicate, .leaseLost: .conflict
        case .cannotCreate: .cannotCreate
        case .missingFile: .missingInput
        case .database, .io: .io
        case .invalidArgument, .invalidOption: .usage
        case let .media(error): error.kind
        case let .store(_, kind): kind
        }
    }

    public var description: String {
        switch self {
        case let .corruptDatabase(path, reason):
            "\(path): not a usable roll database (\(reason)); it was left untouched — move it aside to start a new roll"
        case let .newerSchema(path, unknown):
            "\(path): written by a newer feed (unknown migrations: \(unknown.joined(separator: ", "))); it was left untouched — upgrade feed"
        case let .database(path, reason):
            "\(path): \(reason)"
        case let .unknownID(id):
            "roll: no recording with id \(Self.word(id))"
        case let .missingFile(path):
            "\(path): no such file"
        case let .notMedia(path, reason):
            "\(path): not a video file (\(reason)); nothing was added"
        case let .duplicate(path, existingID):
            "\(path): same content as recording \(existingID); nothing was added"
        case let .io(path, reason):
            "\(path): \(reason)"
        case let .cannotCreate(path, reason):
            "\(path): cannot write: \(reason)"
        case .emptyRoll:
            "roll: no recordings yet"
        case let .invalidArgument(message):
            message
        case let .invalidOption(name, problem):
            "\(name) \(problem)"
        case let .leaseLost(jobID):
            "job \(jobID): lease lost (expired and taken back, or cancelled); the result was discarded"
        case let .media(error):
            error.description
        case let .store(message, _):
            message
        }
    }

    /// `text` as is, or quoted and escaped when it would not read as one word (empty, spaces, a newline).
    private static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }
        return plain ? text : String(reflecting: text)
    }
}
