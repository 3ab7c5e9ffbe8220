import FeedAccess
import FeedCore
import Foundation
import Hummingbird

/// A small text file of a ladder or a storyboard that names other files of this server (an HLS
/// playlist, a DASH manifest, storyboard cues), served as players need it: gzip-encoded when
/// `Accept-Encoding` allows, an `ETag` per encoding and per link expiry, 304 on a match, HEAD.
/// When links are signed, `sign` signs the URIs in it (``SignedPlaylist``), until the link it was
/// asked with expires, or for a link's lifetime when it was asked with a bearer token.
struct SignedDocument {
    /// Signs the URIs of a document served at a request path.
    typealias Signing = (_ body: [UInt8], _ requestPath: String, _ signer: LinkSigner, _ expires: Int64) -> [UInt8]

    let path: String
    let contentType: String
    let sign: Signing
    /// Applied to the body before signing (a playlist's files named by their objects' URLs),
    /// with a tag that changes when its result does (added to the entity tag).
    var rewrite: (transform: ([UInt8]) -> [UInt8], tag: String)?

    func response(to request: Request, context: ServerContext, access: AccessControl) throws -> Response {
        var info = stat()
        guard stat(path, &info) == 0, let bytes = FileManager.default.contents(atPath: path) else {
            throw RequestFailure.notFound("\(request.uri.path): the file is gone")
        }
        var body = [UInt8](bytes)
        var etag = FileResponse.etag(info)
        if let rewrite {
            body = rewrite.transform(body)
            etag = String(etag.dropLast()) + "-\(rewrite.tag)\""
        }
        if let (signer, expires) = access.signing(for: context.caller) {
            body = sign(body, request.uri.path, signer, expires)
            etag = String(etag.dropLast()) + "-\(expires)\""
        }
        var headers: HTTPFields = [.contentType: contentType, .vary: "Accept-Encoding", .cacheControl: "no-cache"]
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
}
