/// Where a stored medium is, as the catalog names it: a kind and a name, never a path or a URL,
/// so that the same rows work over a folder today and an object store next.
public struct MediaKey: Hashable, Sendable, CustomStringConvertible {
    /// What the bytes are: a recording as it came, or a medium derived from one (made on first
    /// use, deleted with it, made again when lost).
    public enum Kind: String, Sendable, CaseIterable {
        /// A recording's stored file (its row's `file_name`).
        case recording
        /// A recording's poster, made on request and cached: `<id>-<milliseconds>.jpg`.
        case poster
        /// A recording's storyboard: `<id>-storyboard`, holding `storyboard.jpg` and
        /// `storyboard.vtt` (see ``Storyboard``).
        case storyboard
        /// A recording's HLS/DASH ladder: `<id>-<first 12 hex of its SHA-256>-cmaf`, holding
        /// `master.m3u8`, `manifest.mpd` and a folder per rendition (see ``HLSPackager``).
        case ladder
        /// A fast-start copy (`moov` first, see ``FastStartCopies``): named after the recording's
        /// stored file, or `clip-…` for a served feed's clip.
        case fastStart = "faststart"
        /// An unfinished resumable upload's bytes, appended to by each PATCH
        /// (``MediaStore/append(to:at:)``): `<id>.part`; while it joins the roll, also a second
        /// name `<id>.<ext>` (``MediaStore/alias(_:as:)``). See ``UploadStore``.
        case upload

        /// Whether a medium of this kind is a set of files under its name (a storyboard, a
        /// ladder), published and removed together, rather than one file.
        public var isSet: Bool { self == .storyboard || self == .ladder }
    }

    public let kind: Kind
    /// The name within its kind: a plain file name (``RollPaths/storedName(_:)`` makes any other
    /// one harmless, so no key reaches outside the store).
    public let name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// The stored file of a recording named `fileName`.
    public static func recording(_ fileName: String) -> MediaKey { MediaKey(kind: .recording, name: fileName) }

    /// The poster of recording `id` at `milliseconds` into it.
    public static func poster(id: Int64, milliseconds: Int) -> MediaKey { MediaKey(kind: .poster, name: "\(id)-\(milliseconds).jpg") }

    /// The storyboard of recording `id`.
    public static func storyboard(id: Int64) -> MediaKey { MediaKey(kind: .storyboard, name: "\(id)-storyboard") }

    /// The HLS/DASH ladder named `name` (``Roll/hlsName(_:)``).
    public static func ladder(_ name: String) -> MediaKey { MediaKey(kind: .ladder, name: name) }

    /// The fast-start copy named `name`.
    public static func fastStart(_ name: String) -> MediaKey { MediaKey(kind: .fastStart, name: name) }

    /// The bytes of unfinished upload `id`.
    public static func upload(id: String) -> MediaKey { MediaKey(kind: .upload, name: "\(id).part") }

    public var description: String { "\(kind.rawValue)/\(name)" }
}
