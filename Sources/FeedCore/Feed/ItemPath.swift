/// The JSON path of one array element or of the root, built into text only when reported.
struct ItemPath: Sendable {
    /// The path of the array holding the item (`"videos"`, `"[4].media"`, `""` for the root).
    var parent: String
    /// The item's index in that array, nil for the root itself.
    var index: Int?

    /// The root of the document.
    static let root = ItemPath(parent: "", index: nil)

    /// `videos[3]`.
    var text: String { index.map { "\(parent)[\($0)]" } ?? parent }

    /// `videos[3].likes`.
    func child(_ name: String) -> String {
        let base = text
        return base.isEmpty ? name : base + "." + name
    }
}
