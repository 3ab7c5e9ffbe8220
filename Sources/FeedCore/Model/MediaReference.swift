import Foundation

/// Where a feed says a clip or picture is, kept exactly as written: an absolute URL, or a
/// file path, absolute or relative to the feed file's folder.
///
/// `"https://cdn.test/a.mp4"` and `"file:///srv/a.mp4"` are URLs (text that starts with a
/// scheme, RFC 3986); `"/srv/clips/a.mp4"` and `"clips/a.mp4"` are paths. A reference says
/// nothing about where the feed is: ``resolved(against:)`` (or ``Feed/location(of:)``) turns
/// it into the file or URL to open.
public enum MediaReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An absolute URL, as written: `https://…`, `file:///…`, or any other scheme.
    case url(String)
    /// A file path, as written: absolute (`/srv/clips/a.mp4`) or relative to the feed's
    /// folder (`clips/a.mp4`, `../shared/a.mp4`).
    case path(String)

    /// `text` classified as the feed loader does: a scheme first (`https:`, `file:`) makes it
    /// a URL, anything else is a path. Nil for empty text. Nothing is checked or opened.
    public init?(_ text: String) {
        if text.isEmpty { return nil }
        self = Self.hasScheme(text) ? .url(text) : .path(text)
    }

    /// The reference of `url`: its absolute string (a URL without a scheme reads as a path).
    public init(url: URL) {
        let text = url.absoluteString
        self = Self.hasScheme(text) ? .url(text) : .path(text)
    }

    /// The text as written in the feed.
    public var text: String {
        switch self {
        case .url(let text), .path(let text): text
        }
    }

    /// Same as ``text``.
    public var description: String { text }

    /// The URL of a `.url` reference (nil if Foundation cannot parse it); nil for a path.
    public var url: URL? {
        guard case .url(let text) = self else { return nil }
        return URL(string: text)
    }

    /// Where the media is, for a feed read from the URL `base` (a remote feed): a path is a
    /// URL relative to `base` (`clips/a.mp4`, `/clips/a.mp4`), resolved as a browser does;
    /// a URL stays as written. A `file:` URL therefore stays a URL, which no player or probe
    /// opens: a remote feed cannot make feed read a local file.
    public func resolved(against base: URL) -> MediaLocation {
        switch self {
        case .path(let path):
            // As written when it is a valid relative URL (a query kept); else escaped (spaces).
            let url = URL(string: path, relativeTo: base)
                ?? path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).flatMap { URL(string: $0, relativeTo: base) }
            return .url(url?.absoluteString ?? path)
        case .url(let text):
            return .url(text)
        }
    }

    /// Where the media is, for a feed whose folder is `folder` (an absolute path):
    /// - a relative path is taken from `folder`, an absolute one as it is; `.` and `..`
    ///   segments are then resolved, as in a relative URL (without looking at the disk);
    /// - a `file:` URL is its path (percent-escapes decoded), resolved the same way;
    /// - every other URL (`http(s):`, `data:` …) stays a URL, as written.
    public func resolved(against folder: String) -> MediaLocation {
        switch self {
        case .path(let path):
            return .file(path: Self.absolute(path, in: folder))
        case .url(let text):
            guard let url = URL(string: text), url.scheme?.lowercased() == "file" else { return .url(text) }
            return .file(path: Self.absolute(url.path, in: folder))
        }
    }

    /// A single string, the text as written.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let reference = MediaReference(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty media reference"))
        }
        self = reference
    }

    /// Encodes ``text``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// `path` made absolute from `folder`, with empty, `.` and `..` segments resolved
    /// lexically (`..` at the root stays at the root). Symbolic links are not followed.
    public static func absolute(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : folder + "/" + path
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Whether `text` starts with `scheme:` per RFC 3986: a letter, then letters, digits,
    /// `+`, `-`, `.`, then `:`.
    static func hasScheme(_ text: String) -> Bool {
        var sawLetter = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): sawLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if !sawLetter { return false }
            case UInt8(ascii: ":"): return sawLetter
            default: return false
            }
        }
        return false
    }
}
