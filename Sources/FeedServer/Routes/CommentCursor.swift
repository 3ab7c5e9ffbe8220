/// Where a page of `GET /comments?limit=` goes on: below a stored comment's number (`s42`), or,
/// once the posted ones are done, below an index of the feed's own comments (`f15`).
enum CommentCursor: Equatable, CustomStringConvertible {
    /// Stored comments numbered below `before` (nil: from the newest).
    case stored(before: Int64?)
    /// The feed's comments at indexes below `before`.
    case feed(before: Int)

    /// The first page: the newest stored comment first.
    static let start = CommentCursor.stored(before: nil)

    /// Parses `s<number>` or `f<index>`; nil for anything else.
    init?(_ text: String) {
        guard let kind = text.first, let number = Int64(text.dropFirst()), number >= 0,
              String(number) == text.dropFirst() else { return nil }
        switch kind {
        case "s" where number > 0: self = .stored(before: number)
        case "f": self = .feed(before: Int(number))
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .stored(let before): "s\(before ?? Int64.max)"
        case .feed(let before): "f\(before)"
        }
    }
}
