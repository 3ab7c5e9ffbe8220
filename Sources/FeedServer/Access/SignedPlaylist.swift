import FeedAccess
import FeedCore

/// Documents whose URIs are signed links (``LinkSigner``): an HLS playlist (each URI line and
/// each `URI="…"` attribute, `EXT-X-MAP`, `EXT-X-MEDIA`), a DASH manifest and storyboard cues.
/// Each URI keeps its relative form and gains `?exp=&sig=` for the path it resolves to, so a
/// player that follows the document with no header fetches every file it names.
enum SignedPlaylist {
    /// `playlist`, served at `path`, with its URIs signed until `expires`.
    static func sign(_ playlist: [UInt8], at path: String, signer: LinkSigner, expires: Int64) -> [UInt8] {
        let folder = Self.folder(of: path)
        return rewritingURIs(playlist) { Self.signed($0, in: folder, signer: signer, expires: expires) }
    }

    /// `playlist` with each URI (a line, or a tag's `URI="…"`) that `rewrite` gives another
    /// form for replaced by it; the rest as it was.
    static func rewritingURIs(_ playlist: [UInt8], _ rewrite: (Substring) -> String?) -> [UInt8] {
        let text = String(decoding: playlist, as: UTF8.self)
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                lines.append(attributes(line) { rewrite($0) ?? String($0) })
            } else {
                let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
                lines.append(trimmed.isEmpty ? String(line) : (rewrite(trimmed) ?? String(trimmed)) + (trimmed.count < line.count ? "\r" : ""))
            }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// A DASH manifest (`manifest.mpd`, served at `path`) with every `sourceURL="…"` and
    /// `media="…"` attribute (its `SegmentList`'s files) signed as ``sign(_:at:signer:expires:)`` does.
    static func signManifest(_ manifest: [UInt8], at path: String, signer: LinkSigner, expires: Int64) -> [UInt8] {
        let folder = Self.folder(of: path)
        return rewritingManifestURIs(manifest) { signed($0, in: folder, signer: signer, expires: expires) }
    }

    /// `manifest` with each `sourceURL="…"` and `media="…"` value that `rewrite` changes replaced
    /// by the new one, its `&` written `&amp;` as XML wants (a value left as it was is not touched).
    static func rewritingManifestURIs(_ manifest: [UInt8], _ rewrite: (Substring) -> String?) -> [UInt8] {
        var text = String(decoding: manifest, as: UTF8.self)
        for name in [#"sourceURL=""#, #"media=""#] {
            var out = "", rest = Substring(text)
            while let start = rest.range(of: name) {
                out += rest[..<start.upperBound]
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                let value = rest[..<end]
                if let changed = rewrite(value), changed != value { out += changed.replacingOccurrences(of: "&", with: "&amp;") } else { out += value }
                rest = rest[end...]
            }
            text = out + rest
        }
        return Array(text.utf8)
    }

    /// Storyboard cues (WebVTT, served at `path`) with the sprite URL of every cue signed:
    /// `storyboard.jpg?exp=…&sig=…#xywh=…`.
    static func signCues(_ cues: [UInt8], at path: String, signer: LinkSigner, expires: Int64) -> [UInt8] {
        let signed = Self.signed(Substring(Storyboard.imageName), in: folder(of: path), signer: signer, expires: expires)
        let text = String(decoding: cues, as: UTF8.self)
        return Array(text.replacingOccurrences(of: Storyboard.imageName + "#", with: signed + "#").utf8)
    }

    /// The folder of the document at `path`, with its final `/`: what its relative URIs resolve against.
    private static func folder(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/"
    }

    /// `uri`, relative to `folder`, with `?exp=&sig=` for the path it resolves to; an absolute
    /// URL or path, or one with a query already, is left as it is.
    private static func signed(_ uri: Substring, in folder: String, signer: LinkSigner, expires: Int64) -> String {
        guard !uri.isEmpty, !uri.contains(":"), !uri.hasPrefix("/"), !uri.contains("?") else { return String(uri) }
        let resolved = folder + uri
        return String(uri) + signer.sign(resolved, expires: expires).dropFirst(resolved.count)
    }

    /// A tag line with the value of its `URI="…"` attribute signed.
    private static func attributes(_ line: Substring, _ signed: (Substring) -> String) -> String {
        guard let start = line.range(of: #"URI=""#) else { return String(line) }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return String(line) }
        return line[..<start.upperBound] + signed(rest[..<end]) + line[end...]
    }
}
