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
        if let rung, let file, !(Self.isRungName(rung) && Self.isFileName(file)) {
            throw RequestFailure.notFound("\(request.uri.path): no such file in an HLS ladder")
        }
        let recording = try await service.recording(id: try context.parameters.require("id"), for: context.caller)
        let folder = try await packagings.folder(of: recording)
        guard let rung, let file else {
            if request.uri.path.hasSuffix("/" + DASHManifest.fileName) {
                return try manifest(folder.path, request: request, context: context)
            }
            return try playlist(folder.appendingPathComponent("master.m3u8").path, request: request, context: context)
        }
        let path = folder.appendingPathComponent(rung).appendingPathComponent(file).path
        if file == "index.m3u8" { return try playlist(path, request: request, context: context) }
        return try await FileResponse(path: path, contentType: file == "init.mp4" ? "video/mp4" : "video/iso.segment")
            .response(to: request, context: context, fileIO: fileIO)
    }

    /// The ladder's DASH manifest, `application/dash+xml`, signed and compressed as playlists are.
    func manifest(_ folder: String, request: Request, context: ServerContext) throws -> Response {
        let path = folder + "/" + DASHManifest.fileName
        return try playlist(path, request: request, context: context, type: "application/dash+xml")
    }

    /// A playlist, gzip-encoded when `Accept-Encoding` allows; `ETag` per encoding, 304 on a match.
    /// When links are signed, every URI in it is too (``SignedPlaylist``), until the link it was
    /// asked with expires, or for a link's lifetime when it was asked with a bearer token.
    func playlist(_ path: String, request: Request, context: ServerContext, type: String = "application/vnd.apple.mpegurl") throws -> Response {
        var info = stat()
        guard stat(path, &info) == 0, let bytes = FileManager.default.contents(atPath: path) else {
            throw RequestFailure.notFound("\(request.uri.path): no such file in this ladder")
        }
        var body = [UInt8](bytes)
        var etag = FileResponse.etag(info)
        if let (signer, expires) = service.configuration.access.signing(for: context.caller) {
            body = type == "application/dash+xml" ? SignedPlaylist.signManifest(body, at: request.uri.path, signer: signer, expires: expires)
                : SignedPlaylist.sign(body, at: request.uri.path, signer: signer, expires: expires)
            etag = String(etag.dropLast()) + "-\(expires)\""
        }
        var headers: HTTPFields = [.contentType: type, .vary: "Accept-Encoding", .cacheControl: "no-cache"]
        if Gzip.accepted(by: request.headers[.acceptEncoding]), let packed = Gzip.compress(body) {
            body = packed
            etag = String(etag.dropLast()) + "-gzip\""
            headers[.contentEncoding] = "gzip"
        }
        headers[.eTag] = etag
        let validators = Validators(etag: etag, lastModified: Int64(info.st_mtim.tv_sec))
        if validators.evaluate(ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: nil, ifRange: nil) == .notModified {
            return Response(status: .notModified, headers: [.eTag: etag, .vary: "Accept-Encoding"])
        }
        headers[.contentLength] = String(body.count)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `720p`: digits then `p`, as HLSRung names them, or `audio`, the audio rendition.
    static func isRungName(_ text: String) -> Bool {
        text == HLSVariant.audioFolder || text.count >= 2 && text.count <= 5 && text.last == "p" && text.dropLast().allSatisfy(\.isASCIIDigitCharacter)
    }

    /// `index.m3u8`, `init.mp4` or `segment_` + five or more digits + `.m4s`.
    static func isFileName(_ text: String) -> Bool {
        if text == "index.m3u8" || text == "init.mp4" { return true }
        guard text.hasPrefix("segment_"), text.hasSuffix(".m4s") else { return false }
        let digits = text.dropFirst("segment_".count).dropLast(".m4s".count)
        return digits.count >= 5 && digits.count <= 9 && digits.allSatisfy(\.isASCIIDigitCharacter)
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
