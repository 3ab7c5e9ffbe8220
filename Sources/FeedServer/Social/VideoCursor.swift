import FeedCore
import Hummingbird

/// Where a page of `GET /videos?cursor=` goes on: below a post's id (`p1000000000042`), or,
/// once the posts are done, at an index of the feed's own videos (`f15`).
enum VideoCursor: Equatable, CustomStringConvertible {
    /// Posts with ids below `before` (nil: from the newest).
    case post(before: Int64?)
    /// The feed's videos from `index` on.
    case file(index: Int)

    /// The first page.
    static let start = VideoCursor.post(before: nil)

    /// Parses `p<id>` or `f<index>`; nil for anything else.
    init?(_ text: String) {
        guard let kind = text.first, let number = Int64(text.dropFirst()), number >= 0, String(number) == text.dropFirst() else { return nil }
        switch kind {
        case "p" where number > 0: self = .post(before: number)
        case "f" where number <= Int.max: self = .file(index: Int(number))
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .post(let before): "p\(before ?? Int64.max)"
        case .file(let index): "f\(index)"
        }
    }

    /// The request's cursor (``start`` without one); a 400 for one this server never gave, for
    /// one beside `offset`, or for one in an order other than the default.
    static func parse(_ request: Request, query: FeedQuery) throws -> VideoCursor {
        guard let text = request.uri.queryParameters["cursor"] else { return .start }
        guard let cursor = VideoCursor(String(text)) else { throw RequestFailure.usage("cursor \(text) is not one this server gave") }
        if query.offset > 0 { throw RequestFailure.usage("cursor and offset page in two ways: give one of them") }
        if query.sort != .feed || query.reverse { throw RequestFailure.usage("cursor pages the default order only: page sort=\(query.sort.rawValue) with offset") }
        return cursor
    }
}
