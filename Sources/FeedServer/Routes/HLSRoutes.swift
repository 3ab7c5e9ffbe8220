import FeedCore
import Foundation
import Hummingbird

/// `GET`/`HEAD /roll/{id}/hls/master.m3u8` and everything under it: a recording's adaptive
/// ladder, packaged on first request and cached in the roll (`feed roll hls`). Media types as
/// Apple lists them: playlists `application/vnd.apple.mpegurl` (gzip when the client accepts
/// it), `init.mp4` `video/mp4`, segments `video/iso.segment`. The rung and file names must be
/// ones the packager makes (`720p`, `index.m3u8`, `init.mp4`, `segment_00000.m4s`); anything
/// else is a 404 before any file is looked at.
struct HLSRoutes {
    let service: FeedService
    let packagings: HLSPackagings
    let fileIO = FileIO()

    func register(on router: RouteRecorder) {
        for path in ["roll/:id/hls/master.m3u8", "roll/:id/hls/manifest.mpd", "roll/:id/hls/:rung/:file"] {
            router.get(RouterPath(path)) { request, context in try await serve(request, context) }
            router.head(RouterPath(path)) { request, context in try await serve(request, context) }
        }
    }

    @Sendable func serve(_ request: Request, _ context: ServerContext) async throws -> Response {
        let rung = context.parameters.get("rung"), file = context.parameters.get("file")
        if let rung, let file, !(LadderFolder.isRungName(rung) && LadderFolder.isFileName(file)) {
            throw RequestFailure.notFound("\(request.uri.path): no such file in an HLS ladder")
        }
        let recording = try await service.recording(id: try context.parameters.decoded("id"), for: context.caller)
        let folder = try await packagings.folder(of: recording)
        guard let rung, let file else {
            if request.uri.path.hasSuffix("/" + DASHManifest.fileName) {
                return try manifest(folder, request: request, context: context)
            }
            return try playlist(folder.appendingPathComponent(HLSMaster.fileName).path, request: request, context: context)
        }
        let path = folder.appendingPathComponent(rung).appendingPathComponent(file).path
        if file == "index.m3u8" {
            return try playlist(path, request: request, context: context, direct: direct(folder, rung: rung, request: request))
        }
        // In a bucket, the segment's own object (playlists stay here: their links are signed).
        if let url = service.roll.media.directURL(for: .ladder(folder.lastPathComponent), member: "\(rung)/\(file)",
                                                  expires: MediaRoutes.linkExpiry(request, access: service.configuration.access)) {
            return MediaRoutes.redirect(url)
        }
        return try await FileResponse(path: path, contentType: file == "init.mp4" ? "video/mp4" : "video/iso.segment")
            .response(to: request, context: context, fileIO: fileIO)
    }

    /// An HLS playlist, its URIs signed when links are; with `direct`, the files it names that
    /// `direct` gives a URL for are named by that URL (a bucket's objects) instead.
    func playlist(_ path: String, request: Request, context: ServerContext,
                  direct: (rewrite: (Substring) -> String?, tag: String)? = nil) throws -> Response {
        var document = SignedDocument(path: path, contentType: "application/vnd.apple.mpegurl", sign: SignedPlaylist.sign)
        if let direct {
            document.rewrite = ({ SignedPlaylist.rewritingURIs($0, direct.rewrite) }, direct.tag)
        }
        return try document.response(to: request, context: context, access: service.configuration.access)
    }

    /// How a rung's playlist (`rung`) or the DASH manifest (nil: its URIs are `RUNG/FILE`) names
    /// the init segments and segments when the ladder is in a bucket: each file's object URL
    /// until the link's expiry; nil for a folder.
    func direct(_ folder: URL, rung: String?, request: Request) -> (rewrite: (Substring) -> String?, tag: String)? {
        let media = service.roll.media, key = MediaKey.ladder(folder.lastPathComponent)
        let expires = MediaRoutes.linkExpiry(request, access: service.configuration.access)
        guard media.directURL(for: key, member: HLSMaster.fileName, expires: expires) != nil else { return nil }
        let rewrite = { (uri: Substring) -> String? in
            let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
            let (rungName, file) = rung.map { ($0, String(uri)) } ?? (parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", ""))
            guard LadderFolder.isRungName(rungName), LadderFolder.isFileName(file), !file.hasSuffix(".m3u8") else { return nil }
            return media.directURL(for: key, member: "\(rungName)/\(file)", expires: expires)?.absoluteString
        }
        return (rewrite, "d\(Int64(expires.timeIntervalSince1970))")
    }

    /// The ladder's DASH manifest, `application/dash+xml`, its URLs signed when links are; in a
    /// bucket, its segments named by their objects' URLs.
    func manifest(_ folder: URL, request: Request, context: ServerContext) throws -> Response {
        var document = SignedDocument(path: folder.path + "/" + DASHManifest.fileName, contentType: "application/dash+xml",
                                      sign: SignedPlaylist.signManifest)
        if let direct = direct(folder, rung: nil, request: request) {
            document.rewrite = ({ SignedPlaylist.rewritingManifestURIs($0, direct.rewrite) }, direct.tag)
        }
        return try document.response(to: request, context: context, access: service.configuration.access)
    }
}
