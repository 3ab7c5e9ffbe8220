import Foundation

extension Comment {
    /// The feed's comments followed by the stored ones. A stored comment's id continues after
    /// the feed's highest numeric id, so ids stay unique and numeric as LIVEr apps expect.
    public static func merged(_ feed: [Comment], stored: [(number: Int64, username: String, text: String)]) -> [Comment] {
        let base = storedIDBase(feed)
        return feed + stored.map { Comment.stored($0, base: base) }
    }

    /// The id a stored comment's number is added to: the highest numeric id of the feed's own.
    public static func storedIDBase(_ feed: [Comment]) -> Int64 {
        feed.compactMap { comment -> Int64? in if case .int(let n) = comment.id { n } else { nil } }.max() ?? 0
    }

    /// A stored comment as served: id `base` + its number; `posted-N` when a feed's ids leave no
    /// room above them (an id near 2^63).
    public static func stored(_ row: (number: Int64, username: String, text: String), base: Int64) -> Comment {
        let (id, overflow) = base.addingReportingOverflow(row.number)
        return Comment(id: overflow ? .string("posted-\(row.number)") : .int(id), username: row.username, comment: row.text)
    }

    /// Whether `text` holds nothing but white space, as JSON Schema's (ECMAScript's) `\s`
    /// counts it, so that the API's document and the server agree on every character.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
            default: false
            }
        }
    }

    /// Why a posted comment is refused, or nil: a username and a text, each on one line of
    /// at most 100 and 2,000 characters.
    public static func problem(username: String, text: String) -> String? {
        if isBlank(username) { return "username cannot be empty" }
        if isBlank(text) { return "comment cannot be empty" }
        // Characters are Unicode code points, as JSON Schema's maxLength counts them.
        if username.unicodeScalars.count > 100 { return "username is over 100 characters" }
        if text.unicodeScalars.count > 2000 { return "comment is over 2000 characters" }
        if username.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "username holds control characters" }
        // Tabs and line breaks are text; NUL and the other controls are not (PostgreSQL cannot
        // store NUL at all, and SQLite would cut the comment there when printed).
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || $0.value == 0x7F }) {
            return "comment holds control characters (only tabs and line breaks are allowed)"
        }
        return nil
    }
}
