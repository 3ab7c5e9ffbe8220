/// Why ``AudioSync`` found no offset.
public enum SyncError: FeedFailure, Equatable {
    /// An option is out of range; `problem` says what is accepted.
    case invalidOption(SyncOptions.Field, problem: String)
    /// The recording has no audio track.
    case noAudio(path: String)
    /// The recording's audio track is silent (or too short to compare).
    case silent(path: String)
    /// No offset in the searched range fits clearly better than another: the recordings share
    /// no sound, or it repeats (a beat, a ticking clock). A wrong offset is worse than none.
    /// (`searched` is a range, not an array: an error still held when the CLI exits must own
    /// no heap memory, or LeakSanitizer reports it.)
    case noMatch(front: String, back: String, confidence: Double, searched: ClosedRange<Double>)
    /// Reading a recording failed.
    case media(MediaError)
    /// The comparison could not run (memory ran out).
    case correlationFailed(path: String)

    public var kind: FailureKind {
        switch self {
        case .invalidOption: .usage
        case .noAudio, .silent, .noMatch: .invalidData
        case .media(let error): error.kind
        case .correlationFailed: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let field, let problem): "\(field.rawValue) \(problem)"
        case .noAudio(let path): "\(path): has no audio track to line up by"
        case .silent(let path): "\(path): its audio is silent; nothing to line up by"
        case .noMatch(let front, let back, let confidence, let searched):
            "\(front) and \(back): no offset between \(Self.seconds(searched.lowerBound)) and \(Self.seconds(searched.upperBound)) s fits clearly "
                + "(confidence \(Self.confidence(confidence))): the clips share no sound, or it repeats"
        case .media(let error): error.description
        case .correlationFailed(let path): "\(path): cannot compare the audio: out of memory"
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%g", value) }
    static func confidence(_ value: Double) -> String { String(format: "%.2f", value) }
}
