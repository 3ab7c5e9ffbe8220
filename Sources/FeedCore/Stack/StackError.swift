/// Why `Stacker.run` failed.
public enum StackError: FeedFailure, Equatable {
    /// An option is out of range; `problem` says what is accepted ("must be 2…16384, not 0").
    case invalidOption(StackOptions.Field, problem: String)
    /// The output would be over 16384x16384 or 100 million pixels.
    case outputTooLarge(width: Int, height: Int)
    /// An input reports no picture size.
    case noPictureSize
    /// The output exists and `force` is off.
    case outputExists(path: String)
    /// The audio asked for comes from a clip without sound.
    case noAudio(path: String)
    /// With this offset the clips do not overlap, so stopping at the shorter one leaves nothing.
    case noOverlap(offset: Double)
    /// A signal or a cancelled task stopped the work; the temporary file was removed.
    case interrupted
    /// Reading an input or writing the output failed.
    case media(MediaError)
    /// The offset could not be found from the clips' sound (no clear match, no audio).
    case sync(SyncError)
    /// The output was written but the roll refused to save it; the output is kept.
    case notSaved(output: String, RollError)

    public var kind: FailureKind {
        switch self {
        case .invalidOption, .noOverlap, .outputTooLarge: .usage
        case .noPictureSize, .noAudio: .invalidData
        case .outputExists: .cannotCreate
        case .interrupted: .interrupted
        case .media(let error): error.kind
        case .sync(let error): error.kind
        case .notSaved(_, let error): error.kind
        }
    }

    public var description: String {
        switch self {
        case .invalidOption(let field, let problem): "\(field.rawValue) \(problem)"
        case .outputTooLarge(let width, let height):
            "output \(width)x\(height) is over 16384x16384 / 100 million pixels; ask for a smaller width or size"
        case .noPictureSize: "an input has no picture size"
        case .outputExists(let path): "\(path): already exists"
        case .noAudio(let path): "\(path): has no audio track to use"
        case .noOverlap(let offset): "with an offset of \(offset) s the clips do not overlap"
        case .interrupted: "interrupted; no output written"
        case .media(let error): error.description
        case .sync(let error): error.description
        case .notSaved(let output, let error): "\(output) was written but not saved to the roll: \(error)"
        }
    }
}
