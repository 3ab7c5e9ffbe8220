/// What became of one file given to ``Roll/addSkippingDuplicates(_:options:isCancelled:outcome:)``.
public enum AddOutcome: Sendable, Equatable {
    /// It was added as this recording.
    case added(Recording)
    /// It was skipped: its bytes are already in the roll as recording `existingID`. `path` is
    /// the file's absolute path.
    case duplicate(path: String, existingID: Int64)
}
