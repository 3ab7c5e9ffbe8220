/// How ``Roll/add(_:options:)`` brings a file into `recordings/`.
public struct AddOptions: Sendable {
    /// What happens to the original file.
    public enum Mode: String, Sendable {
        /// Copy it (the default); the original stays.
        case copy
        /// Move it: a rename on the same file system, else copy then delete the original.
        case move
        /// Hard-link it (same file system), else a symbolic link to it; nothing is copied.
        case link
    }

    /// What happens to the original file.
    public var mode: Mode
    /// Add it even when the same bytes are already in the roll.
    public var allowDuplicate: Bool
    /// An optional title; `{name}` in it stands for the file's name without its extension
    /// (``TitleTemplate``).
    public var title: String?
    /// The file's name where it came from, when the path it is added from is not that (an
    /// upload's `filename`, the client's): recorded as the recording's `originalPath` and what
    /// `{name}` in ``title`` stands for. Nil: the path it is added from.
    public var originalName: String?
    /// For stacked recordings: the source files (front, back).
    public var sources: [String]?
    /// For stacked recordings: the options used, as a JSON object text.
    public var stackOptions: String?
    /// The user the recording belongs to (an upload's or a job's owner); nil for the server's own.
    /// Duplicates are looked for among the owner's recordings only.
    public var owner: String?
    /// Inserts the new row in place of the catalog's `insert` (nil: the catalog's). A job
    /// completing under its lease inserts the row in the transaction that ends the job; when it
    /// throws (the lease was lost), the file that was renamed in is removed again.
    public var commit: RecordingCommit?
    /// Called with the new file's name in `recordings/` before anything is renamed there (a job
    /// records it on its row, so a file its dead worker leaves can be found and removed).
    /// When it throws, nothing is added.
    public var stage: (@Sendable (String) async throws(RollError) -> Void)?

    /// Options; the defaults copy and refuse duplicates.
    public init(mode: Mode = .copy, allowDuplicate: Bool = false, title: String? = nil,
                sources: [String]? = nil, stackOptions: String? = nil, owner: String? = nil) {
        self.mode = mode
        self.allowDuplicate = allowDuplicate
        self.title = title
        self.sources = sources
        self.stackOptions = stackOptions
        self.owner = owner
    }
}

/// Inserts a recording's row and returns it as stored (see ``AddOptions/commit``).
public typealias RecordingCommit = @Sendable (Recording) async throws(RollError) -> Recording
