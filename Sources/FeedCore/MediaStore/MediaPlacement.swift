/// A medium just placed by ``MediaStore/put(_:from:mode:check:)``: what the roll writes into its
/// row, and what it needs to take the placement back when the row is refused.
public struct MediaPlacement: Sendable, Equatable {
    /// Where the bytes now are.
    public let key: MediaKey
    /// The SHA-256 (hex) and size of the bytes stored.
    public let sha256: String
    public let bytes: Int64
    /// Whether the source file itself became the stored one (`move` within one file system):
    /// taking the placement back returns it to the source's name.
    public let tookSource: Bool
    /// Whether the source's bytes were copied for a `move` (another file system, or a symbolic
    /// link): the caller removes the source once the row is written.
    public let copiedForMove: Bool

    public init(key: MediaKey, sha256: String, bytes: Int64, tookSource: Bool, copiedForMove: Bool) {
        self.key = key
        self.sha256 = sha256
        self.bytes = bytes
        self.tookSource = tookSource
        self.copiedForMove = copiedForMove
    }
}
