import FeedCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET`/`HEAD /media/videos/{id}` (a feed video whose clip is local), `…/thumbnail`,
/// `/media/roll/{id}` (a recording) and `/media/roll/{id}/thumb.jpg`. Files are found by id
/// through the feed or the catalog; no part of the request path becomes a file path.
struct MediaRoutes {
    let service: FeedService
    /// Where posters, storyboards and fast-start copies are made: the server's media threads
    /// (``FeedServer/media``), not the `--jobs` ones a stack may hold for minutes.
    let media: BlockingPool
    let fileIO = FileIO()

    func register(on router: RouteRecorder) {
        for (path, handler) in [("media/videos/:id", feedClip), ("media/videos/:id/thumbnail", feedPoster),
                                ("media/posts/:id/:index", postMedium),
                                ("media/roll/:id", recording), ("media/roll/:id/thumb.jpg", recordingPoster),
                                ("media/roll/:id/storyboard.jpg", storyboardImage), ("media/roll/:id/storyboard.vtt", storyboardCues)] {
            router.get(RouterPath(path)) { request, context in try await handler(request, context) }
            router.head(RouterPath(path)) { request, context in try await handler(request, context) }
        }
    }

    @Sendable func feedClip(_ request: Request, _ context: ServerContext) async throws -> Response {
        try await local(request, context, reference: try video(context).videoReference, what: "clip", fastStart: true)
    }

    @Sendable func feedPoster(_ request: Request, _ context: ServerContext) async throws -> Response {
        try await local(request, context, reference: try video(context).thumbnailReference, what: "thumbnail")
    }

    @Sendable func postMedium(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        guard let post = service.feed.posts.first(where: { $0.id.description == id }) else {
            throw FeedError.unknownID(FeedID(parsing: id), source: service.feed.source)
        }
        let text = try context.parameters.require("index")
        guard let index = Int(text), post.media.indices.contains(index) else {
            throw RequestFailure.notFound("post \(id) has no medium \(text) (it has \(post.media.count))")
        }
        return try await local(request, context, reference: post.media[index].reference, what: "medium")
    }

    /// `GET /media/roll/{id}`: the recording, fast start (``served(_:name:)``), or with
    /// `?original=1` its bytes as they came (those its `sha256` names). Either way `Repr-Digest`
    /// (RFC 9530) gives the SHA-256 of the representation sent, so a client checks what it
    /// downloaded against what was sent, not against the row's hash of the other form.
    @Sendable func recording(_ request: Request, _ context: ServerContext) async throws -> Response {
        let recording = try await lookUp(context)
        let roll = service.roll, copies = service.fastStart
        let original = request.uri.queryParameters.get("original")
        guard original == nil || original == "1" else {
            throw RequestFailure.usage("\(request.method.rawValue) \(request.uri.path): original must be 1 (the bytes as they were added), not \(original ?? "")")
        }
        let asStored = original == "1"
        // Elsewhere than a folder (a bucket), the local copy is fetched on the media threads.
        let stored = roll.media is FolderMediaStore ? roll.path(of: recording) : try await media.run { roll.path(of: recording) }
        let path = asStored ? stored : try await served(stored, name: recording.fileName)
        let sha256: String? = path == stored ? recording.sha256 : try await media.run { copies.sha256(of: path) }
        if !(roll.media is FolderMediaStore) {
            // The served form's own object is linked to, or the bytes are sent from the copy.
            let key: MediaKey = path == stored ? .recording(recording.fileName) : .fastStart(RollPaths.storedName(recording.fileName))
            if let url = roll.media.directURL(for: key, expires: linkExpiry(request)) { return Self.redirect(url) }
        }
        var response = try await FileResponse(path: path, contentType: FileResponse.contentType(forExtension: (path as NSString).pathExtension))
            .response(to: request, context: context, fileIO: fileIO)
        if let sha256, let field = Self.reprDigest(sha256) { response.headers[Self.reprDigestField] = field }
        return response
    }

    /// `Repr-Digest` (RFC 9530).
    static let reprDigestField = HTTPField.Name("Repr-Digest")!

    /// `sha-256=:BASE64:` for a hex SHA-256; nil for text that is not one.
    static func reprDigest(_ hex: String) -> String? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return "sha-256=:\(Data(bytes).base64EncodedString()):"
    }

    /// When a link to the bytes should stop working (see ``linkExpiry(_:access:)``).
    func linkExpiry(_ request: Request) -> Date { Self.linkExpiry(request, access: service.configuration.access) }

    /// When a link to the bytes should stop working: the signed link's own expiry when the
    /// request came with one, else a link's lifetime from now.
    static func linkExpiry(_ request: Request, access: AccessControl) -> Date {
        let now = Int64(Date().timeIntervalSince1970)
        if let given = request.uri.queryParameters.get("exp").flatMap(Int64.init), given > now { return Date(timeIntervalSince1970: Double(given)) }
        // Whole minutes, as signed links' are: documents naming such links change once a minute.
        return Date(timeIntervalSince1970: Double(access.links?.expiry(now: now) ?? (now + 3600 + 59) / 60 * 60))
    }

    @Sendable func recordingPoster(_ request: Request, _ context: ServerContext) async throws -> Response {
        let recording = try await lookUp(context)
        let roll = service.roll
        // Posters are made on first request (FFmpeg, a few ms) and cached by the roll.
        let poster: URL
        // A folder answers "is it made?" with a stat; a bucket with a round trip, off this thread.
        if roll.media is FolderMediaStore, let cached = roll.cachedThumbnail(of: recording) {
            poster = cached
        } else {
            poster = try await media.run { try roll.thumbnail(of: recording) }
        }
        if let url = roll.media.directURL(for: MediaKey(kind: .poster, name: poster.lastPathComponent), expires: linkExpiry(request)) {
            return Self.redirect(url)
        }
        return try await FileResponse(path: poster.path, contentType: "image/jpeg").response(to: request, context: context, fileIO: fileIO)
    }

    /// A 307 to where the bytes are (a bucket's presigned URL, a CDN's), not to be cached: the
    /// link expires.
    static func redirect(_ url: URL) -> Response {
        Response(status: .temporaryRedirect, headers: [.location: url.absoluteString, .cacheControl: "private, no-cache"])
    }

    /// The fast-start form of `path` (``FastStartCopies``): known already, or made on the
    /// server's media threads (a copy of the file, once).
    private func served(_ path: String, name: String?) async throws -> String {
        let copies = service.fastStart
        if let ready = copies.cached(path) { return ready }
        return try await media.run { copies.served(path, name: name) }
    }

    @Sendable func storyboardImage(_ request: Request, _ context: ServerContext) async throws -> Response {
        let folder = try await storyboard(context)
        if let url = service.roll.media.directURL(for: MediaKey(kind: .storyboard, name: folder.lastPathComponent), member: Storyboard.imageName,
                                                  expires: linkExpiry(request)) {
            return Self.redirect(url)
        }
        return try await FileResponse(path: folder.appendingPathComponent(Storyboard.imageName).path, contentType: "image/jpeg")
            .response(to: request, context: context, fileIO: fileIO)
    }

    /// The cues, their sprite URL signed when links are, so a player resolving it needs no header.
    @Sendable func storyboardCues(_ request: Request, _ context: ServerContext) async throws -> Response {
        let folder = try await storyboard(context)
        return try SignedDocument(path: folder.appendingPathComponent(Storyboard.cuesName).path, contentType: "text/vtt; charset=utf-8",
                                  sign: SignedPlaylist.signCues)
            .response(to: request, context: context, access: service.configuration.access)
    }

    /// The recording's storyboard folder, made on first request on the media threads and cached.
    private func storyboard(_ context: ServerContext) async throws -> URL {
        let recording = try await lookUp(context)
        let roll = service.roll
        if roll.media is FolderMediaStore, let cached = roll.cachedStoryboard(of: recording) { return cached }
        return try await media.run { try roll.storyboard(of: recording) }
    }

    private func video(_ context: ServerContext) throws -> Video {
        let id = try context.parameters.decoded("id")
        guard let video = service.video(id: id) else {
            throw FeedError.unknownID(FeedID(parsing: id), source: service.feed.source)
        }
        return video
    }

    private func lookUp(_ context: ServerContext) async throws -> Recording {
        try await service.recording(id: try context.parameters.decoded("id"), for: context.caller)
    }

    /// The local file `reference` names; with `fastStart`, its fast-start form (a feed's clips;
    /// posters and post media are served as they are).
    private func local(_ request: Request, _ context: ServerContext, reference: MediaReference?, what: String,
                       fastStart: Bool = false) async throws -> Response {
        guard let reference else { throw RequestFailure.notFound("\(request.uri.path): this video has no \(what)") }
        guard case .file(let original) = service.feed.location(of: reference) else {
            throw RequestFailure.notFound("\(request.uri.path): the \(what) is not a local file; it is at \(reference.text)")
        }
        let path = fastStart ? try await served(original, name: nil) : original
        return try await FileResponse(path: path, contentType: FileResponse.contentType(forExtension: (path as NSString).pathExtension))
            .response(to: request, context: context, fileIO: fileIO)
    }
}
