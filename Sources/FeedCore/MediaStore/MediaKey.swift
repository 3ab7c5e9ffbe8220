/// Where a stored medium is, as the catalog names it: a kind and a name, never a path or a URL,
/// so that the same rows work over a folder today and an object store next.
public struct MediaKey: Hashable, Sendable, CustomStringConvertible {
    /// What the bytes are. Recordings first; posters, storyboards, ladders, fast-start copies
    /// and upload parts join as they move onto the seam.
    public enum Kind: String, Sendable {
        /// A recording's stored file (its row's `file_name`).
        case recording
        /// A recording's poster, made on request and cached: `<id>-<milliseconds>.jpg`.
        case poster
    }

    public let kind: Kind
    /// The name within its kind: a plain file name (``RollPaths/storedName(_:)`` makes any other
    /// one harmless, so no key reaches outside the store).
    public let name: String

    /// The stored file of a recording named `fileName`.
    public static func recording(_ fileName: String) -> MediaKey { MediaKey(kind: .recording, name: fileName) }

    /// The poster of recording `id` at `milliseconds` into it.
    public static func poster(id: Int64, milliseconds: Int) -> MediaKey { MediaKey(kind: .poster, name: "\(id)-\(milliseconds).jpg") }

    public var description: String { "\(kind.rawValue)/\(name)" }
}
