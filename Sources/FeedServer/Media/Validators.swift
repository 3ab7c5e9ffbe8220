import Foundation

/// A stored file's validators (RFC 9110 §8.8) and how a request's conditions (§13) apply to them.
struct Validators: Equatable, Sendable {
    /// A strong entity tag, quotes included: `"…"`.
    var etag: String
    /// Last modification, whole seconds since 1970.
    var lastModified: Int64

    /// What the conditions of a GET or HEAD decide.
    enum Outcome: Equatable {
        /// 304 Not Modified.
        case notModified
        /// Send the representation; `honourRange` is false when `If-Range` does not match.
        case send(honourRange: Bool)
    }

    /// Evaluates `If-None-Match`, else `If-Modified-Since`, then `If-Range` (RFC 9110 §13.2.2);
    /// `now` is the response's `Date`, in seconds since 1970.
    func evaluate(ifNoneMatch: String?, ifModifiedSince: String?, ifRange: String?,
                  now: Int64 = Int64(Date().timeIntervalSince1970)) -> Outcome {
        if let ifNoneMatch {
            // Weak comparison: W/"x" matches "x"; * matches any current representation.
            let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingWhitespace }
            if tags.contains(where: { $0 == "*" || Self.opaque($0) == Self.opaque(etag[...]) }) { return .notModified }
        } else if let ifModifiedSince, let since = HTTPDate.seconds(ifModifiedSince), lastModified <= since {
            return .notModified
        }
        guard let ifRange = ifRange?.trimmingWhitespace else { return .send(honourRange: true) }
        if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
            // Strong comparison only: a weak tag never matches.
            return .send(honourRange: ifRange == etag[...])
        }
        // A date matches only when it is exactly the last modification, and only when that is a
        // strong validator: at least a second before the response's Date (§8.8.2.2; both are
        // whole seconds, so the modification's second must be over by a whole second). A file
        // written twice within its last second could otherwise have two versions' bytes spliced.
        return .send(honourRange: HTTPDate.seconds(String(ifRange)) == lastModified && lastModified + 1 < now)
    }

    /// The tag without a weakness prefix.
    private static func opaque(_ tag: Substring) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
}
