import Crypto
import HTTPTypes
import Hummingbird

/// `GET /` and its two assets, `/console/console.css` and `/console/console.js`: the console, a
/// page a person opens to see the feed as a phone shows it, the roll, uploads and jobs
/// (docs/console.md). Plain HTML, CSS and JavaScript embedded in the binary (the files under
/// `Resources/console/`); it talks to this server's own routes, same origin. It needs no token to
/// load (it asks for one when the API answers 401). A strict Content-Security-Policy: scripts,
/// styles and API calls from this server only; media and images from wherever the feed's links go.
struct ConsoleRoutes {
    /// One asset: its body (gzip too), type and tag, made once.
    struct Asset: Sendable {
        let body: ByteBuffer
        let gzip: ByteBuffer?
        let type: String
        let etag: String

        init(_ bytes: [UInt8], type: String) {
            body = ByteBuffer(bytes: bytes)
            gzip = Gzip.compress(bytes).map { ByteBuffer(bytes: $0) }
            self.type = type
            etag = "\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        }
    }

    static let page = Asset(PackageResources.index_html, type: "text/html; charset=utf-8")
    static let style = Asset(PackageResources.console_css, type: "text/css; charset=utf-8")
    static let script = Asset(PackageResources.console_js, type: "text/javascript; charset=utf-8")

    static let policy = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self' data: blob: http: https:; media-src 'self' blob: http: https:; object-src 'none'; base-uri 'none'; "
        + "frame-ancestors 'none'; form-action 'none'"

    func register(on router: RouteRecorder) {
        for (path, asset) in [("/", Self.page), ("console/console.css", Self.style), ("console/console.js", Self.script)] {
            router.get(RouterPath(path)) { request, _ in Self.respond(asset, to: request) }
            router.head(RouterPath(path)) { request, _ in Self.respond(asset, to: request) }
        }
    }

    static func respond(_ asset: Asset, to request: Request) -> Response {
        let gzip = asset.gzip != nil && Gzip.accepted(by: request.headers[.acceptEncoding])
        let etag = gzip ? String(asset.etag.dropLast()) + "-gzip\"" : asset.etag
        var headers: HTTPFields = [.contentType: asset.type, .eTag: etag, .vary: "Accept-Encoding", .cacheControl: "no-cache",
                                   .contentSecurityPolicy: policy, .xContentTypeOptions: "nosniff",
                                   HTTPField.Name("Referrer-Policy")!: "no-referrer"]
        if Validators(etag: etag, lastModified: 0).evaluate(ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: nil, ifRange: nil) == .notModified {
            return Response(status: .notModified, headers: [.eTag: etag, .vary: "Accept-Encoding"])
        }
        let body = gzip ? asset.gzip! : asset.body
        if gzip { headers[.contentEncoding] = "gzip" }
        headers[.contentLength] = String(body.readableBytes)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
