import FeedAccess
import FeedCore
import FeedSocial
import Foundation
import HTTPTypes
import Hummingbird

/// Resumable uploads into the roll, tus 1.0.0 with the creation, expiration and termination
/// extensions, at `/uploads`: `OPTIONS` (what the server supports), `POST` (create: 201 and
/// `Location`), `HEAD /uploads/{id}` (the offset), `PATCH` (append), `DELETE` (terminate).
/// Plus `GET /uploads/{id}`: the upload as JSON, `done` with `recording_id` once it is in the
/// roll or `failed` with the reason. Records, files, claims and crash behaviour: ``UploadStore``.
struct UploadsRoutes {
    let service: FeedService
    /// Where an upload's blocking file steps run (writes, fsyncs, the probe and hash that finish it).
    let files: BlockingPool

    static let version = "1.0.0"
    static let extensions = "creation,expiration,termination"

    /// tus's header names.
    enum Header {
        static let resumable = HTTPField.Name("Tus-Resumable")!
        static let version = HTTPField.Name("Tus-Version")!
        static let extensions = HTTPField.Name("Tus-Extension")!
        static let maxSize = HTTPField.Name("Tus-Max-Size")!
        static let length = HTTPField.Name("Upload-Length")!
        static let deferLength = HTTPField.Name("Upload-Defer-Length")!
        static let offset = HTTPField.Name("Upload-Offset")!
        static let metadata = HTTPField.Name("Upload-Metadata")!
        static let expires = HTTPField.Name("Upload-Expires")!
    }

    func register(on router: RouteRecorder) {
        router.on("uploads", method: .options) { _, _ in options() }
        router.on("uploads/:id", method: .options) { _, _ in options() }
        router.post("uploads") { request, context in try await tus(request) { try await create(request, context) } }
        router.head("uploads/:id") { request, context in try await tus(request) { try await head(context) } }
        router.patch("uploads/:id") { request, context in try await tus(request) { try await patch(request, context) } }
        router.delete("uploads/:id") { request, context in try await tus(request) { try await terminate(context) } }
        router.get("uploads/:id") { request, context in try await status(request, context) }
    }

    /// 204 with what the server supports; needs no `Tus-Resumable` (and no token).
    func options() -> Response {
        Response(status: .noContent, headers: [Header.resumable: Self.version, Header.version: Self.version,
                                                Header.extensions: Self.extensions,
                                                Header.maxSize: String(service.configuration.uploadMaxSize)])
    }

    /// `POST /uploads` with `Upload-Length` and optional `Upload-Metadata` (`filename`, `title`).
    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        guard request.headers[Header.deferLength] == nil else {
            throw RequestFailure.usage("POST /uploads: Upload-Defer-Length is not supported; give Upload-Length")
        }
        guard let length = Self.count(request.headers[Header.length]) else {
            throw RequestFailure.usage("POST /uploads needs Upload-Length: the size in bytes")
        }
        var metadata = try UploadMetadata(header: request.headers[Header.metadata] ?? "")
        let viewer = context.caller.viewer(request)
        if metadata.publish, context.caller.rowOwner == nil, metadata.values["author"] == nil, let name = viewer.name {
            // An open server's X-Feed-User is the post's author.
            metadata = try UploadMetadata(header: metadata.header + (metadata.header.isEmpty ? "" : ",") + "author " + Data(name.utf8).base64EncodedString())
        }
        // A post it cannot become is refused now, before any byte is sent.
        _ = try UploadPublishing.draft(metadata, recording: 0, owner: context.caller.rowOwner)
        let store = service.uploads
        let upload = try await withTaskExecutorPreference(files) { try await store.create(length: length, metadata: metadata, owner: context.caller.rowOwner) }
        let base = MediaLinks(request: request, service: service).base
        var headers: HTTPFields = [.location: "\(base)/uploads/\(upload.id)"]
        if upload.state == .uploading { headers[Header.expires] = HTTPDate.string(upload.expires) }
        return Response(status: .created, headers: headers)
    }

    /// `HEAD /uploads/{id}`: `Upload-Offset`, `Upload-Length`, `Upload-Metadata`, never cached.
    func head(_ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        let upload = try await lookUp(id, for: context.caller)
        var headers: HTTPFields = [Header.offset: String(upload.offset), Header.length: String(upload.length), .cacheControl: "no-store"]
        if !upload.metadata.header.isEmpty { headers[Header.metadata] = upload.metadata.header }
        if upload.state == .uploading { headers[Header.expires] = HTTPDate.string(upload.expires) }
        return Response(status: .ok, headers: headers)
    }

    /// `PATCH /uploads/{id}`: the body streamed to the partial file, fsync'd before the reply.
    func patch(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/offset+octet-stream" else {
            throw APIError(.unsupportedMediaType, kind: .usage,
                           "PATCH /uploads/\(id) needs Content-Type: application/offset+octet-stream")
        }
        guard let offset = Self.count(request.headers[Header.offset]) else {
            throw RequestFailure.usage("PATCH /uploads/\(id) needs Upload-Offset: where these bytes start")
        }
        let declared = Self.count(request.headers[.contentLength]), body = request.body, store = service.uploads
        if !context.caller.isAdmin { _ = try await lookUp(id, for: context.caller) }
        // Writes, fsyncs and the roll's probe and hash block: keep them off the concurrency pool.
        let upload = try await locked(store) {
            try await withTaskExecutorPreference(files) {
                try await store.patch(id: id, offset: offset, declaredLength: declared) { writer in
                    var chunks = body.makeAsyncIterator()
                    while true {
                        // A body that stops short (the client went away, the connection broke)
                        // is the client's doing: 400 in the log, not a 500. The bytes that came
                        // are kept; HEAD gives the offset to resume from.
                        let chunk: ByteBuffer?
                        do { chunk = try await chunks.next() } catch {
                            throw RequestFailure.usage("PATCH /uploads/\(id): the body stopped before its end (\(Self.reason(error))); "
                                                       + "the bytes that came are kept, HEAD gives the offset")
                        }
                        guard let chunk else { break }
                        try chunk.withUnsafeReadableBytes { try writer.append($0) }
                    }
                }
            }
        }
        var headers: HTTPFields = [Header.offset: String(upload.offset)]
        if upload.state == .uploading { headers[Header.expires] = HTTPDate.string(upload.expires) }
        return Response(status: .noContent, headers: headers)
    }

    /// Upload `id` as `caller` may see it. Its offset is the size of its bytes in the media
    /// store: a `stat` in a folder, a request to a bucket, so it is read on the file pool.
    private func lookUp(_ id: String, for caller: Caller) async throws -> Upload {
        let service = service
        return try await withTaskExecutorPreference(files) { try await service.upload(id: id, for: caller) }
    }

    /// Why a request body stopped, in a few words.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }

    /// `DELETE /uploads/{id}`: its bytes and status go (a finished upload's recording stays).
    func terminate(_ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id"), store = service.uploads
        if !context.caller.isAdmin { _ = try await lookUp(id, for: context.caller) }
        try await locked(store) { try await withTaskExecutorPreference(files) { try await store.delete(id: id) } }
        return Response(status: .noContent)
    }

    /// `GET /uploads/{id}`: `{"id","state","offset","length","filename","title","created","expires",
    /// "recording_id","recording_url","error","owner"}`; fields that do not apply are null.
    func status(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        let upload = try await lookUp(id, for: context.caller)
        let links = MediaLinks(request: request, service: service)
        return try JSONBytes.response(encoding: UploadJSON(upload, links: links, paths: service.paths))
    }

    /// Runs `body`; an upload another request holds (or held, in a server that died: its claim
    /// lasts `claimLease` seconds) is 423 Locked with `Retry-After`, as tusd answers, so tus
    /// clients wait and retry instead of sending their bytes into a refusal again.
    private func locked<T>(_ store: UploadStore, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let UploadError.busy(id) {
            throw APIError(.init(code: 423, reasonPhrase: "Locked"), kind: .conflict,
                           UploadError.busy(id: id).description,
                           headers: [.retryAfter: String(Int(store.claimLease.rounded(.up)))])
        }
    }

    /// Checks `Tus-Resumable`, runs `body`, and puts `Tus-Resumable` on every reply, errors too
    /// (``ErrorMiddleware`` gives a failure its status; this only adds the header).
    private func tus(_ request: Request, _ body: () async throws -> Response) async throws -> Response {
        do {
            guard request.headers[Header.resumable] == Self.version else {
                throw APIError(.preconditionFailed, kind: .usage,
                               "\(request.method.rawValue) \(request.uri.path): needs Tus-Resumable: \(Self.version)",
                               headers: [Header.version: Self.version])
            }
            var response = try await body()
            response.headers[Header.resumable] = Self.version
            return response
        } catch {
            throw FailureWithHeaders(failure: error, headers: [Header.resumable: Self.version])
        }
    }

    /// A header that is a count of bytes: digits only (no sign, no spaces), fits 63 bits.
    static func count(_ text: String?) -> Int64? {
        guard let text, !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}

/// `GET /uploads/{id}`'s body, keys sorted.
private struct UploadJSON: Encodable {
    let upload: Upload
    let links: MediaLinks
    let paths: ServerPaths

    init(_ upload: Upload, links: MediaLinks, paths: ServerPaths) {
        self.upload = upload
        self.links = links
        self.paths = paths
    }

    enum Key: String, CodingKey {
        case id, state, offset, length, filename, title, created, expires, error, owner
        case recordingID = "recording_id", recordingURL = "recording_url"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(upload.id, forKey: .id)
        try c.encode(upload.state.name, forKey: .state)
        try c.encode(upload.offset, forKey: .offset)
        try c.encode(upload.length, forKey: .length)
        try c.encode(upload.metadata.filename, forKey: .filename)
        try c.encode(upload.metadata.title, forKey: .title)
        try c.encode(Recording.iso8601(upload.created), forKey: .created)
        try c.encode(Recording.iso8601(upload.expires), forKey: .expires)
        var recording: Int64?, failure: String?
        switch upload.state {
        case let .done(id): recording = id
        case let .failed(reason): failure = paths.redact(reason)
        case .uploading, .processing: break
        }
        try c.encode(recording, forKey: .recordingID)
        try c.encode(recording.map(links.roll), forKey: .recordingURL)
        try c.encode(failure, forKey: .error)
        try c.encode(upload.owner, forKey: .owner)
    }
}
