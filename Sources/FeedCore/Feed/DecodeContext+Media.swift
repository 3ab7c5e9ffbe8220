import Foundation

// Typed reads of the members that name media or links: `url` (absolute, with a scheme) and
// `media` (a URL, an absolute path or a path relative to the feed's folder), with the scheme
// checks they share. Split from DecodeContext.swift, which keeps the containers and scalars.
extension DecodeContext {
    /// URL member `name`: an absolute URL with a scheme. An empty string counts as absent.
    mutating func url(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> URL? {
        guard let node = try present(object, name, required: required) else { return nil }
        guard document.kind(node) == .string || document.kind(node) == .escapedString else {
            try mismatch(node, path: object.path.child(name.description), expected: "a URL string")
            return nil
        }
        let text = document.string(node)
        if text.isEmpty {
            if required { try report(at: document.offset(node), path: object.path.child(name.description), "expected an absolute URL, found \"\"") }
            return nil
        }
        guard MediaReference.hasScheme(text), let url = URL(string: text) else {
            try report(at: document.offset(node), path: object.path.child(name.description), "expected an absolute URL, found \(document.preview(node))")
            return nil
        }
        return try checkScheme(url, node: node, path: object.path.child(name.description)) ? url : nil
    }

    /// What a media member accepts, for messages.
    private var acceptedMedia: String {
        allowingPaths
            ? "an absolute URL (https://…, file:///…) or a file path (absolute, or relative to the feed's folder)"
            : "an absolute URL (https://…, file:///…)"
    }

    /// Media member `name` (a clip or a picture): an absolute URL, checked like ``url(_:_:required:)``,
    /// or, when ``allowingPaths``, a file path. The text is kept as written. An empty string
    /// counts as absent.
    mutating func media(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> MediaReference? {
        guard let node = try present(object, name, required: required) else { return nil }
        let path = object.path.child(name.description)
        guard document.kind(node) == .string || document.kind(node) == .escapedString else {
            try mismatch(node, path: path, expected: "\(acceptedMedia) as a string")
            return nil
        }
        let text = document.string(node)
        // Only for messages: quoting allocates, and a large feed has a clip in every item.
        var found: String { document.preview(node) }
        if text.isEmpty {
            if required { try report(at: document.offset(node), path: path, "expected \(acceptedMedia), found \"\"") }
            return nil
        }
        if MediaReference.hasScheme(text) {
            guard let url = URL(string: text) else {
                try report(at: document.offset(node), path: path, "expected \(acceptedMedia), found \(found), which is not a valid URL")
                return nil
            }
            return try checkScheme(url, node: node, path: path) ? .url(text) : nil
        }
        // A path, unless it is a URL gone wrong: those would resolve to a file nobody meant.
        if text.hasPrefix("//") {
            try report(at: document.offset(node), path: path,
                       "expected \(acceptedMedia), found \(found), a URL without a scheme: put https: in front")
            return nil
        }
        if text.contains("://") {
            try report(at: document.offset(node), path: path, "expected \(acceptedMedia), found \(found), whose scheme is not valid")
            return nil
        }
        guard allowingPaths else {
            try report(at: document.offset(node), path: path, "expected \(acceptedMedia), found the file path \(found)")
            return nil
        }
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            try report(at: document.offset(node), path: path, "expected \(acceptedMedia), found \(found), a path with a control character")
            return nil
        }
        if Self.looksLikeHost(text) {
            try report(at: document.offset(node), path: path,
                       "file path \(found) looks like a web address: put https:// in front if it is one", severity: .warning)
        }
        return .path(text)
    }

    /// Top-level domains common enough in media links that a relative path starting with a
    /// name ending in one (`i.imgur.com/x.gif`) is more likely a URL missing its scheme.
    private static let commonDomains: Set<Substring> = ["com", "net", "org", "io", "co", "tv", "app", "dev", "me", "cloud"]

    /// True for a relative path whose first segment starts with `www.` or is a dotted name
    /// ending in a ``commonDomains`` label, followed by more segments.
    private static func looksLikeHost(_ path: String) -> Bool {
        guard !path.hasPrefix("/"), let slash = path.firstIndex(of: "/") else { return false }
        let first = path[..<slash].lowercased()
        if first.hasPrefix("www.") { return true }
        let labels = first.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && !labels.contains(where: \.isEmpty) && commonDomains.contains(labels.last!)
    }

    /// Reports a script URL (error) or a scheme feed does not open (warning); false for the error.
    private mutating func checkScheme(_ url: URL, node: Int, path: String) throws(StopDecoding) -> Bool {
        let scheme = url.scheme?.lowercased() ?? ""
        switch scheme {
        case "http", "https", "file":
            // file: is how local feeds name local clips (`feed roll export` writes them); what
            // may be opened is decided where media is opened (protocol whitelist, --allow-network).
            return true
        case "javascript", "vbscript":
            // Script, not media: never right in a feed, whoever made it.
            try report(at: document.offset(node), path: path, "expected an http(s) URL, found a \(scheme): URL (script, not media)")
            return false
        default:
            // data:, ftp:, rtmp: … may be fine in a feed you made, but feed opens none of them:
            // load it, but say so.
            try report(at: document.offset(node), path: path,
                       "\(scheme): URL is not http(s) or file: only trust it in a feed you made", severity: .warning)
            return true
        }
    }
}
