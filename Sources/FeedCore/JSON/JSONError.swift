/// Why a byte sequence is not the JSON feed accepts, and the byte offset where that shows.
struct JSONError: Error, Equatable, Sendable {
    /// Byte offset of the offending byte (or of the start of the offending token).
    var offset: Int
    /// One line, e.g. `unexpected '}': expected a value`.
    var message: String
}
