/// What a token lets its holder do, as its `scope` claim names it (space-separated, OAuth's
/// form; a JSON array of the same words is taken too). Every route needs one (``AccessRule``).
public enum Scope: String, Sendable, CaseIterable, Codable, Comparable {
    /// Read the feed and one's own rows: `GET`/`HEAD` of everything but uploads.
    case read
    /// Change one's own rows: uploads, stack jobs, comments, likes, bookmarks, deleting them;
    /// includes `read` (``Caller/has(_:)``).
    case upload
    /// Everything, everyone's rows included: `--token`, and a JWT whose scope names it.
    case admin

    /// Scopes in a claim's words; unknown words are left out (a team's token may carry its own).
    public static func parse<S: Sequence<Substring>>(_ words: S) -> Set<Scope> {
        Set(words.compactMap { Scope(rawValue: String($0)) })
    }

    /// `read upload`: the order `feed token` writes them in.
    public static func words(_ scopes: Set<Scope>) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: " ")
    }

    public static func < (a: Scope, b: Scope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
