import Foundation

/// Where a ``MediaReference`` points once resolved against its feed's folder: a local file
/// or a URL. This is what a player, `probe` or a server opens.
public enum MediaLocation: Sendable, Hashable, CustomStringConvertible {
    /// A local file: from a feed, an absolute path with `.` and `..` segments resolved; from
    /// the command line (``init(argument:)``), the path as given.
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
    /// A path or URL given on the command line: text with `://`, or `scheme:rest`, is a URL
    /// unless a file of that name exists (`feed probe x:a.mp4` in a folder holding it); anything
    /// else is a path, as given. Text from a feed is never classified this way: a feed's
    /// references are resolved by ``Feed/location(of:)``, and a URL there stays a URL.
    public init(argument: String) {
        let url = argument.contains("://") || (MediaReference.hasScheme(argument) && !FileManager.default.fileExists(atPath: argument))
        self = url ? .url(argument) : .file(path: argument)
    }

    /// Why a player or `probe` may not open this location, or nil when it may: a URL needs
    /// network access (`allowNetwork`), and even then only http(s) URLs are opened; files are
    /// left to ``MediaReader``.
    public func refusal(allowNetwork: Bool) -> MediaError? {
        guard case .url(let text) = self else { return nil }
        if isRemote { return allowNetwork ? nil : .networkNotAllowed(path: text) }
        return .refused(path: text, reason: "only local files and http(s) URLs are opened")
    }

    /// ``refusal(allowNetwork:)`` for a command-line argument (see ``init(argument:)``).
    public static func refusal(toOpen source: String, allowNetwork: Bool) -> MediaError? {
        MediaLocation(argument: source).refusal(allowNetwork: allowNetwork)
    }
}
