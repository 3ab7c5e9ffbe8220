/// Why `Stacker.run` failed.
public enum StackError: FeedFailure, Equatable {
    /// An option is out of range (exit 64).
    case invalidOption(String)
    /// The output exists and `force` is off (exit 73).
    case outputExists(path: String)
    /// `--audio` names a clip without sound (exit 65).
    case noAudio(path: String)
    /// With this offset the clips do not overlap, so `--until shortest` leaves nothing (exit 64).
    case noOverlap(offset: Double)
    /// SIGINT or SIGTERM arrived; the temporary file was removed (exit 130).
    case interrupted
    /// Reading an input or writing the output failed.
    case media(MediaError)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidOption, .noOverlap: .usage
        case .outputExists: .cantCreate
        case .noAudio: .dataError
        case .interrupted: .interrupted
        case .media(let error): error.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let message): message
        case .outputExists(let path): "\(path): already exists; pass --force to replace it"
        case .noAudio(let path): "\(path): has no audio track to use"
        case .noOverlap(let offset): "with --offset \(offset) the clips do not overlap; use --until longest or a smaller offset"
        case .interrupted: "interrupted; no output written"
        case .media(let error): error.description
        }
    }
}
