import FeedAccess
import Foundation
import FeedCore
import Hummingbird

/// The URLs a response gives for media: a local clip (a path or `file:` URL in the feed)
/// becomes this server's `/media/videos/{id}` (and `/media/videos/{id}/thumbnail`), so a
/// phone or another `feed` can play it; remote URLs are left as they are. When the server has
/// a key or a token, every link to its own media is signed (``LinkSigner``), so a player fetches
/// it with no header.
struct MediaLinks: Sendable {
    /// `http://host:port` as the client reached the server.
    let base: String
    let feed: Feed
    /// Signs this server's media links; nil on an open server.
    let signer: LinkSigner?
    /// When the links made here expire (0 when they are not signed).
    let expires: Int64
    /// The served forms of local clips, for `preload_bytes`.
    let fastStart: FastStartCopies

    /// Links for the client that sent `request` (its `Host` header, else the bound address).
    /// With `--trust-proxy`, the scheme and host the proxy forwards (``ForwardedHeaders``), so a
    /// phone behind a TLS-terminating proxy gets `https://` links that work.
    init(request: Request, service: FeedService) {
        var host = request.head.authority.flatMap { Self.isPlainHost($0) ? $0 : nil } ?? service.boundHost
        var scheme = "http"
        if service.configuration.trustProxy {
            let forwarded = ForwardedHeaders(request.headers)
            scheme = forwarded.proto ?? scheme
            host = forwarded.host ?? host
        }
        base = scheme + "://" + host
        feed = service.feed
        fastStart = service.fastStart
        let access = service.configuration.access
        signer = access.links
        expires = signer?.expiry(now: access.now()) ?? 0
    }

    /// What a response built with these links depends on, for ``RenderedCache``'s key.
    var cacheKey: String { "\(base) \(expires)" }

    /// This server's URL for `path` (percent-encoded), signed when links are.
    func local(_ path: String) -> String {
        base + (signer.map { $0.sign(path, expires: expires) } ?? path)
    }

    /// The clip and poster URLs of `video`, and the first-picture length of a local clip.
    func links(_ video: Video) -> LiverJSON.VideoLinks {
        let id = Self.pathSegment(video.id.description)
        var preload: Int64?
        if let reference = video.videoReference, case .file(let path) = feed.location(of: reference) {
            preload = fastStart.preloadBytes(for: path)
        }
        return LiverJSON.VideoLinks(video: link(video.videoReference, local: "/media/videos/\(id)"),
                                    thumbnail: link(video.thumbnailReference, local: "/media/videos/\(id)/thumbnail"),
                                    preloadBytes: preload)
    }

    /// This server's URL for medium `index` of `post` when that medium is a local file, else nil.
    func post(_ post: Post, medium index: Int) -> String? {
        guard let reference = post.media[index].reference, case .file = feed.location(of: reference) else { return nil }
        return local("/media/posts/\(Self.pathSegment(post.id.description))/\(index)")
    }

    /// This server's URL for roll recording `id`.
    func roll(_ id: Int64) -> String { local("/media/roll/\(id)") }

    private func link(_ reference: MediaReference?, local: String) -> String? {
        guard let reference else { return nil }
        switch feed.location(of: reference) {
        case .file: return self.local(local)
        case .url(let text): return text
        }
    }

    /// A Host header that is only a name or address and a port (anything else is not echoed back).
    static func isPlainHost(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 255 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
        }
    }

    /// RFC 3986's unreserved bytes, the only ones a path segment keeps as they are.
    private static let unreserved: [Bool] = (0..<256).map { byte in
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8.contains(UInt8(byte))
    }

    /// `text` percent-encoded as one path segment.
    static func pathSegment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved[Int(byte)] { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += String(format: "%%%02X", byte) }
        }
        return out
    }
}
