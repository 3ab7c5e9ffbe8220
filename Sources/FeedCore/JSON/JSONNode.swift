/// The kind of one ``JSONNode``.
enum JSONKind: UInt8, Sendable {
    case object, array, string, escapedString, int, double, `true`, `false`, null
}

/// One value (or object member name) on a ``JSONDocument`` tape, in document order.
///
/// Containers are followed by their children; `end` is the tape index just past the node's
/// subtree, so siblings are found without walking children. 16 bytes per value.
struct JSONNode: Sendable {
    /// What the value is.
    var kind: JSONKind
    /// Byte offset of the value's first byte (the opening quote for strings).
    var offset: UInt32
    /// Containers: number of elements or members. Scalars: token length in bytes
    /// (strings: the bytes between the quotes).
    var length: UInt32
    /// Tape index just past this node's subtree.
    var end: UInt32
}
