import FeedCore
/// Why a headless play script could not be read.
public enum PlayerScriptError: FeedFailure, Equatable {
    /// Step `index` (1-based) is `step`, which is not a command; `expected` says what would be.
    case badStep(index: Int, step: String, expected: String)
    /// The script has no steps.
    case empty

    /// One line naming the step and what was expected.
    public var description: String {
        switch self {
        case .badStep(let index, let step, let expected):
            "script step \(index) \"\(step)\": \(expected)"
        case .empty:
            "the script is empty: give steps like \"next,next,prev,pause,seek:+5,next\""
        }
    }

    /// A bad script is a usage error.
    public var kind: FailureKind { .usage }
}
