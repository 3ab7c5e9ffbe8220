import Foundation

/// Where a ``MediaReference`` points once resolved against its feed's folder: a local file
/// or a URL. This is what a player, `probe` or a server opens.
public enum MediaLocation: Sendable, Hashable, CustomStringConvertible {
    /// A local file: an absolute path with `.` and `..` segments resolved.
    case file(path: String)
    /// A URL that is not a local file, as written in the feed: `http(s):` (remote), or a
    /// scheme feed does not open (`data:`, `ftp:` …).
    case url(String)

    /// What ``MediaReader`` and ``MediaClipPlayer`` take: the path of a file, else the URL.
    public var source: String {
        switch self {
        case .file(let path): path
        case .url(let text): text
        }
    }

    /// True for an `http:` or `https:` URL: opening it needs network access.
    public var isRemote: Bool {
        guard case .url(let text) = self else { return false }
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Same as ``source``.
    public var description: String { source }
}

extension MediaLocation {
    /// Why a player or `probe` may not open `source` (a path, or a URL as ``source`` gives it),
    /// or nil when it may: a URL needs network access (`allowNetwork`), and even then only
    /// http(s) URLs are opened. Paths are left to ``MediaReader``;
    /// `scheme:rest` counts as a URL unless a file of that name exists.
    public static func refusal(toOpen source: String, allowNetwork: Bool) -> MediaError? {
        let url = source.contains("://") || (MediaReference.hasScheme(source) && !FileManager.default.fileExists(atPath: source))
        guard url else { return nil }
        let lower = source.prefix(8).lowercased()
        let http = lower.hasPrefix("http://") || lower.hasPrefix("https://")
        if http && !allowNetwork {
            return .networkNotAllowed(path: source)
        }
        if !http {
            return .refused(path: source, reason: "only local files and http(s) URLs are opened")
        }
        return nil
    }
}
