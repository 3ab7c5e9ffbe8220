/// An object being decoded: its node and its path.
struct ObjectRef {
    /// The object's node index.
    var node: Int
    /// The object's path.
    var path: ItemPath
}
