import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// Live streams over HTTP: `POST /live` (`{"title":…}` → 201, the stream with its `stream_key`,
/// `rtmp_url` and `playback_url`), `GET /live` (`{"streams":[…]}`, the caller's, newest first,
/// `limit` 1…100 and `before` an id), `GET /live/{id}`, `DELETE /live/{id}` (ends it and
/// disconnects its publisher), `POST /live/{id}/key` (a new key); and playback:
/// `POST /live/{id}/comments`, `POST /live/{id}/hearts` and `GET /live/{id}/events` (SSE: the
/// room around the video); `GET /live/{id}/index.m3u8`, the LL-HLS media playlist (blocking reloads with `_HLS_msn`
/// and `_HLS_part`), and the files it names (`init.mp4`, `part_M_P.m4s`, `seg_M.m4s`), from the
/// server the publisher reached. A stream is its owner's (and the admin's), as a recording is;
/// players follow the signed `playback_url`.
struct LiveRoutes {
    let service: FeedService
    let hub: LiveHub
    /// The port RTMP publishers reach, once bound (nil: no `--rtmp-port`).
    let rtmpPort: @Sendable () -> Int?

    var streams: LiveStreams { LiveStreams(store: service.roll.catalog) }

    func register(on router: RouteRecorder) {
        router.post("live") { request, context in try await create(request, context) }
        router.get("live") { request, context in try await list(request, context) }
        router.get("live/:id") { request, context in try await shown(try await stream(context), request) }
        router.delete("live/:id") { request, context in
            let ended = try await service.roll.endLiveStream(id: try await stream(context).id).stream
            hub.finish(ended.id)
            return try await shown(ended, request)
        }
        router.post("live/:id/key") { request, context in
            try await shown(try await streams.rotateKey(id: try await stream(context).id), request)
        }
        router.post("live/:id/comments") { request, context in try await comment(request, context) }
        router.get("live/:id/comments") { request, context in try await comments(request, context) }
        router.post("live/:id/hearts") { request, context in try await hearts(request, context) }
        router.get("live/:id/events") { _, context in try await events(context) }
        router.get("live/:id/index.m3u8") { request, context in try await playlist(request, context) }
        router.get("live/:id/:file") { request, context in try await file(request, context) }
    }

    private struct Created: Decodable {
        let title: String
        /// Publish the recording once the stream ends (a post by the stream's owner).
        let publish: Bool?
        let description: String?
        let visibility: Visibility?
        /// The post's author, for a stream with no owner (the admin's).
        let author: String?
    }

    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: service.configuration.maxJSONBody)
        guard let posted = try? JSONDecoder().decode(Created.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage("POST /live: the body must be {\"title\":…}")
        }
        let owner = context.caller.rowOwner
        // A post it cannot become is refused before the stream exists.
        let draft = try LivePublishing.draft(publish: posted.publish, description: posted.description, visibility: posted.visibility,
                                             author: posted.author ?? (owner == nil ? context.caller.viewer(request).name : nil), owner: owner)
        let stream = try await streams.create(title: posted.title, owner: owner)
        if let draft { try await service.social.setLivePublish(streamID: stream.id, draft) }
        var response = try await shown(stream, request, status: .created)
        response.headers[.location] = "/live/\(stream.id)"
        return response
    }

    func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let limit = try VideosRoutes.count(request, "limit") ?? 20
        guard (1...100).contains(limit) else { throw RequestFailure.usage("limit must be 1…100, not \(limit)") }
        let before = try VideosRoutes.count(request, "before").map(Int64.init)
        let page = try await streams.page(before: before, limit: limit, ownedBy: context.caller.listedOwner)
        var out = Array(#"{"streams":["#.utf8)
        for (index, stream) in page.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(stream, request, into: &out)
        }
        out.append(contentsOf: "]}\n".utf8)
        return JSONBytes.response(out)
    }

    /// The stream in the path if the caller may see it; another user's is as unknown as a missing one.
    func stream(_ context: ServerContext) async throws -> LiveStream {
        let text = try context.parameters.decoded("id")
        guard let id = Int64(text), id > 0 else { throw RequestFailure.notFound("live stream \(text): no such stream") }
        let stream = try await streams.stream(id: id)
        guard context.caller.sees(stream.owner) else { throw LiveError.notFound(id: id) }
        return stream
    }

    func shown(_ stream: LiveStream, _ request: Request, status: HTTPResponse.Status = .ok) async throws -> Response {
        var out: [UInt8] = []
        encode(stream, request, into: &out)
        return JSONBytes.response(out + [0x0A], status: status)
    }

    /// A stream as JSON with its key (the caller sees only their own) and the URLs for it.
    func encode(_ stream: LiveStream, _ request: Request, into out: inout [UInt8]) {
        let links = MediaLinks(request: request, service: service)
        var rtmp: [UInt8] = Array("null".utf8)
        if let port = rtmpPort() {
            rtmp = []
            JSONBytes.string("rtmp://\(Self.hostname(links.base)):\(port)/\(LiveIngest.application)", into: &rtmp)
        }
        var playback: [UInt8] = []
        JSONBytes.string(links.local("/live/\(stream.id)/index.m3u8"), into: &playback)
        var extra: [(String, [UInt8])] = [("rtmp_url", rtmp), ("playback_url", playback),
                                          ("part_target", Array(String(format: "%g", hub.options.partTarget).utf8))]
        extra.append(("viewers", Array(String(stream.state == .active ? hub.room(stream.id).shownViewers(stream) : 0).utf8)))
        extra.append(("hearts", Array(String(stream.hearts).utf8)))
                LiveStreamJSON.encode(stream, showKey: true, extra: extra, into: &out)
    }

    /// The host of `base` (`http://host:port`), without scheme or port.
    static func hostname(_ base: String) -> String {
        let authority = base.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? base
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[...close]) }
        return authority.split(separator: ":").first.map(String.init) ?? authority
    }

    // MARK: The room

    private struct PostedComment: Decodable { var username: String; var comment: String }
    private struct PostedHearts: Decodable { var count: Int? }

    /// `POST /live/{id}/comments` (the body `POST /comments` takes) → 201 with the comment, its
    /// `stream_time` the live edge's when the stream plays here.
    func comment(_ request: Request, _ context: ServerContext) async throws -> Response {
        let stream = try await stream(context)
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let posted = try? JSONDecoder().decode(PostedComment.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage("POST /live/\(stream.id)/comments: the body must be {\"username\":…,\"comment\":…}")
        }
        if let problem = Comment.problem(username: posted.username, text: posted.comment) {
            throw RequestFailure(.invalidData, "POST /live/\(stream.id)/comments: \(problem)")
        }
        guard stream.state != .ended else { throw LiveError.ended(id: stream.id) }
        let comment = LiveComment(streamID: stream.id, username: posted.username, text: posted.comment, createdAt: Date(),
                                  streamTime: hub.channel(stream.id)?.liveEdge, owner: context.caller.rowOwner)
        let stored = try await service.roll.catalog.addLiveComment(comment)
        return JSONBytes.response(LiveEvent.json(stored) + [0x0A], status: .created)
    }

    /// `GET /live/{id}/comments`: the chat so far, newest first (`limit` 1…100, 50 by default;
    /// `before` the last id of the page before), each as its `comment` event carries it, so a
    /// viewer joining late shows what was said before the event stream brings what is new.
    func comments(_ request: Request, _ context: ServerContext) async throws -> Response {
        let stream = try await stream(context)
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...100).contains(limit) else { throw RequestFailure.usage("limit must be 1…100, not \(limit)") }
        let before = try VideosRoutes.count(request, "before").map(Int64.init)
        let page = try await service.roll.catalog.liveComments(stream: stream.id, before: before, limit: limit)
        var out = Array(#"{"comments":["#.utf8)
        for (index, comment) in page.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: LiveEvent.json(comment))
        }
        out.append(contentsOf: "]}\n".utf8)
        return JSONBytes.response(out)
    }

    /// `POST /live/{id}/hearts`: no body is one heart, `{"count":N}` N (1…10); a caller sends at
    /// most ten a second (429 past it). 204.
    func hearts(_ request: Request, _ context: ServerContext) async throws -> Response {
        let stream = try await stream(context)
        let body = try await request.body.collect(upTo: 1024)
        var count = 1
        if body.readableBytes > 0 {
            guard let posted = try? JSONDecoder().decode(PostedHearts.self, from: Data(buffer: body)) else {
                throw RequestFailure.usage("POST /live/\(stream.id)/hearts: the body must be empty or {\"count\":N}")
            }
            count = posted.count ?? 1
        }
        guard (1...LiveRoom.heartsPerSecond).contains(count) else {
            throw RequestFailure.usage("count must be 1…\(LiveRoom.heartsPerSecond), not \(count)")
        }
        guard stream.state != .ended else { throw LiveError.ended(id: stream.id) }
        guard hub.room(stream.id).hearts(count, from: client(request, context)) else {
            throw APIError(.tooManyRequests, kind: .usage, "live stream \(stream.id): at most \(LiveRoom.heartsPerSecond) hearts a second from one caller",
                           headers: [.retryAfter: "1"])
        }
        return Response(status: .noContent)
    }

    /// `GET /live/{id}/events`: Server-Sent Events (`state`, `viewers`, `comment`, `heart`) until
    /// the client goes.
    func events(_ context: ServerContext) async throws -> Response {
        let stream = try await stream(context)
        let events = hub.room(stream.id).watch(current: stream)
        let body = ResponseBody { writer in
            for await event in events {
                try await writer.write(ByteBuffer(bytes: event.sse))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                        body: RequestRecord.streamed(body, context))
    }

    /// Who a viewer or a heart is: the user (or the admin), else the address and the user agent.
    func client(_ request: Request, _ context: ServerContext) -> String {
        if let bucket = RateLimitMiddleware.bucket(of: context.caller) { return bucket }
        let address = RateLimitMiddleware.address(request, context, trustProxy: service.configuration.trustProxy)
        return address + " " + (request.headers[.userAgent] ?? "")
    }

    // MARK: Playback

    /// Where the stream in the path plays.
    private enum Playback {
        /// Here: its channel.
        case here(LiveChannel)
        /// On the server its publisher reached (another server sharing the catalog): a 307 to
        /// the same path and query there.
        case elsewhere(Response)
    }

    /// Where the stream in the path plays: here, or (published to another server of the
    /// catalog) there; 404 while nobody has published to it. A stream playing here is found
    /// without a catalog read (players ask several times a second each).
    private func playback(_ request: Request, _ context: ServerContext) async throws -> Playback {
        if let id = Int64(try context.parameters.decoded("id")), let channel = hub.channel(id), context.caller.sees(channel.owner) {
            return .here(channel)
        }
        let stream = try await stream(context)
        if let channel = hub.channel(stream.id) { return .here(channel) }
        guard stream.state != .idle, let origin = stream.origin, origin != service.origin else {
            throw RequestFailure.notFound("live stream \(stream.id): not live on this server")
        }
        return .elsewhere(Response(status: .temporaryRedirect, headers: [.location: origin + request.uri.description, .cacheControl: "no-cache"]))
    }

    /// The media playlist; with `_HLS_msn` (and `_HLS_part`) held until it holds that part,
    /// 400 when that is more than two segments ahead, 503 when the hold runs out.
    func playlist(_ request: Request, _ context: ServerContext) async throws -> Response {
        let channel: LiveChannel
        switch try await playback(request, context) {
        case let .here(here): channel = here
        case let .elsewhere(redirect): return redirect
        }
        hub.room(channel.streamID).saw(client(request, context))
        let query = request.uri.queryParameters
        let msn = try query["_HLS_msn"].map { try Self.number($0, "_HLS_msn") }
        let part = try query["_HLS_part"].map { try Self.number($0, "_HLS_part") }
        if part != nil && msn == nil { throw RequestFailure.usage("_HLS_part needs _HLS_msn") }
        if let msn {
            switch channel.playlist.blockingReload(msn: msn, part: part) {
            case .tooFarAhead:
                throw RequestFailure.usage("_HLS_msn=\(msn)\(part.map { "&_HLS_part=\($0)" } ?? ""): too far ahead of the live edge")
            case .ready: break
            case .hold:
                guard await channel.wait(for: .playlist(msn: msn, part: part)) else {
                    throw RequestFailure(.unavailable, "live stream \(channel.streamID): no part \(msn).\(part ?? 0) within the hold")
                }
            }
        }
        var body = channel.playlistAndText.1
        if let (signer, expires) = service.configuration.access.signing(for: context.caller) {
            body = ByteBuffer(bytes: SignedPlaylist.sign(Array(buffer: body), at: request.uri.path, signer: signer, expires: expires))
        }
        // A blocking request's answer is the playlist as of that part: a CDN may keep it; the
        // plain playlist changes with every part.
        let cache = msn == nil ? "no-cache" : "public, max-age=\(Int(hub.hold.components.seconds) * 10)"
        return Response(status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl", .cacheControl: cache,
                                               .contentLength: String(body.readableBytes)],
                        body: request.method == .head ? .init() : .init(byteBuffer: body))
    }

    /// `init.mp4`, a part or a segment; the part a playlist hints at next is held until it is
    /// complete. Immutable once made: a CDN keeps them.
    func file(_ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.decoded("file")
        guard let kind = LiveFileName(name) else { throw RequestFailure.notFound("\(request.uri.path): no such file in a live stream") }
        if case .playlist = kind { return try await playlist(request, context) }
        let channel: LiveChannel
        switch try await playback(request, context) {
        case let .here(here): channel = here
        case let .elsewhere(redirect): return redirect
        }
        var bytes = channel.file(name)
        if bytes == nil, case let .part(msn, index) = kind, Self.isHinted(msn, index, in: channel.playlist) {
            if await channel.wait(for: .file(name)) { bytes = channel.file(name) }
        }
        guard let bytes else { throw RequestFailure.notFound("\(request.uri.path): not (or no longer) in the stream") }
        let type = kind == .initialization ? "video/mp4" : "video/iso.segment"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=31536000, immutable",
                                               .contentLength: String(bytes.readableBytes)],
                        body: request.method == .head ? .init() : .init(byteBuffer: bytes))
    }

    /// Whether part `index` of segment `msn` is the one `playlist`'s preload hint names.
    static func isHinted(_ msn: Int, _ index: Int, in playlist: LLHLSPlaylist) -> Bool {
        guard let current = playlist.current else { return false }
        return current.sequence == msn && current.parts.count == index
            || current.sequence + 1 == msn && index == 0 && current.parts.count > 0
    }

    private static func number(_ text: Substring, _ name: String) throws -> Int {
        guard let value = Int(text), value >= 0, value <= 1_000_000_000 else { throw RequestFailure.usage("\(name) must be a whole number, not \(text)") }
        return value
    }
}

/// The names a live stream's files have: `index.m3u8`, `init.mp4`, `part_M_P.m4s`, `seg_M.m4s`.
/// Anything else is a 404 before any lookup.
enum LiveFileName: Equatable {
    case playlist, initialization
    case part(Int, Int)
    case segment(Int)

    init?(_ name: String) {
        switch name {
        case "index.m3u8": self = .playlist
        case LLHLSPlaylist.initURI: self = .initialization
        default:
            guard name.hasSuffix(".m4s"), name.utf8.count <= 40 else { return nil }
            let fields = name.dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
            if fields.count == 3, fields[0] == "part", let msn = Int(fields[1]), let index = Int(fields[2]), msn >= 0, index >= 0,
               LLHLSPlaylist.partURI(sequence: msn, index: index) == name {
                self = .part(msn, index)
            } else if fields.count == 2, fields[0] == "seg", let msn = Int(fields[1]), msn >= 0, LLHLSPlaylist.segmentURI(sequence: msn) == name {
                self = .segment(msn)
            } else {
                return nil
            }
        }
    }
}
