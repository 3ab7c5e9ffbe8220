/// Why `feed hls` (or `feed roll hls`) could not package a clip.
public enum HLSError: FeedFailure, Equatable {
    /// An option is out of range; `problem` says how.
    case invalidOption(HLSOptions.Field, problem: String)
    /// The output folder exists (and replacing it was not asked for).
    case outputExists(path: String)
    /// `--force`, but the output is not a ladder: it holds `entry` (`.` for a file), which
    /// replacing it would delete.
    case notALadder(path: String, entry: String)
    /// The output folder cannot be made or renamed into place.
    case cannotCreate(path: String, reason: String)
    /// Ctrl-C or SIGTERM (or a cancelled request): nothing was left behind.
    case interrupted
    /// Reading the input or encoding failed.
    case media(MediaError)
    /// The roll could not be read or locked.
    case roll(RollError)
    /// A playlist the muxer wrote could not be read back (a bug, or the folder changed under us).
    case badPlaylist(path: String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .invalidOption: .usage
        case .outputExists, .notALadder, .cannotCreate: .cannotCreate
        case .interrupted: .interrupted
        case .media(let error): error.kind
        case .badPlaylist: .io
        case .roll(let error): error.kind
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let field, let problem): "\(field.rawValue) \(problem)"
        case .outputExists(let path): "\(path): already exists"
        case .notALadder(let path, let entry):
            switch entry {
            case ".": "\(path): not a readable folder; --force replaces only a ladder"
            case "no master.m3u8": "\(path): holds no master.m3u8, so not a ladder; --force replaces only a ladder (remove the folder yourself, or choose another -o)"
            default: "\(path): holds \(entry), which is not part of a ladder; --force replaces only a ladder (remove the folder yourself, or choose another -o)"
            }
        case .cannotCreate(let path, let reason): "\(path): cannot create: \(reason)"
        case .interrupted: "interrupted; no output was left"
        case .media(let error): error.description
        case .badPlaylist(let path, let reason): "\(path): unreadable playlist: \(reason)"
        case .roll(let error): error.description
        }
    }
}
