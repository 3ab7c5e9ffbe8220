/// Passwords in URLs, hidden before a URL is printed or kept: `http://alice:s3cret@host/a.mp4`
/// is shown as `http://alice:***@host/a.mp4`, and a `password=` in a query as `password=***`.
/// The user name stays (it says whose account, not how to use it). Every error, log line,
/// listing and cache record that names a URL given by a user or a feed goes through here.
public enum URLCredentials {
    /// `url` (one URL, as given) with its password hidden: the one in the user part (everything
    /// between `://` and the last `@`, so a password with `#`, `/` or `@` in it that a URL parser
    /// would split is still hidden whole) and a `password=` in the query.
    public static func redacted(url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://"),
           let at = text.range(of: "@", options: .backwards, range: scheme.upperBound ..< text.endIndex),
           let colon = text[scheme.upperBound ..< at.lowerBound].firstIndex(of: ":") {
            text.replaceSubrange(text.index(after: colon) ..< at.lowerBound, with: "***")
        }
        return queryRedacted(text)
    }

    /// `text` (a message, a line of a log) with the password of every URL in it hidden. A URL
    /// in running text ends at white space, and its user part at the first `/`, `?` or `#`.
    public static func redacted(inText text: String) -> String {
        guard text.contains("://") else { return text }
        let hidden = text.replacing(#/([A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#@:]*):[^\s/?#]*@/#) { "\($0.output.1):***@" }
        return queryRedacted(hidden)
    }

    private static func queryRedacted(_ text: String) -> String {
        text.replacing(#/([?&]password=)[^&#\s]*/#) { "\($0.output.1)***" }
    }
}
