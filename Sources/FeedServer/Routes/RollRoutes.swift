import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// The roll over HTTP: `GET /roll?limit=&cursor=`, `GET`/`DELETE /roll/{id}`,
/// `PUT`/`DELETE /videos/{id}/like` and `/bookmark`, `GET /likes`, `GET /bookmarks`.
/// The same database as the CLI: a like made here shows in `feed list --liked`.
struct RollRoutes {
    let service: FeedService
    /// Where file work runs (a removal waits for the roll's lock, renames and fsyncs).
    let files: BlockingPool

    func register(on router: RouteRecorder) {
        router.get("roll") { request, context in try await page(request, context) }
        router.get("roll/:id") { request, context in try await one(request, context) }
        router.delete("roll/:id") { _, context in try await remove(context) }
        for mark in VideoMark.allCases {
            router.put(RouterPath("videos/:id/\(mark.rawValue)")) { request, context in try await set(mark, true, request, context) }
            router.delete(RouterPath("videos/:id/\(mark.rawValue)")) { request, context in try await set(mark, false, request, context) }
        }
        router.get("likes") { request, context in try await marked(.like, request, context) }
        router.get("bookmarks") { request, context in try await marked(.bookmark, request, context) }
    }

    /// `{"recordings":[…],"next_cursor":…}`, newest first; `next_cursor` null on the last page.
    /// A user's own recordings; an admin's, everyone's.
    func page(_ request: Request, _ context: ServerContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...1000).contains(limit) else { throw RequestFailure.usage("limit must be 1…1000, not \(limit)") }
        var cursor: RecordingCursor?
        if let text = parameters["cursor"] {
            guard let parsed = RecordingCursor(String(text)) else { throw RequestFailure.usage("cursor \(text) is not one this server gave") }
            cursor = parsed
        }
        let recordings = try await service.roll.recordings(after: cursor, limit: limit + 1, ownedBy: context.caller.listedOwner)
        let shown = Array(recordings.prefix(limit))
        let links = MediaLinks(request: request, service: service)
        var out = Array(#"{"recordings":["#.utf8)
        for (index, recording) in shown.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(recording, links: links, into: &out)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        if recordings.count > limit, let last = shown.last {
            JSONBytes.string(RecordingCursor(after: last).description, into: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: "}\n".utf8)
        return JSONBytes.response(out)
    }

    func one(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        let recording = try await service.recording(id: id, for: context.caller)
        var out: [UInt8] = []
        encode(recording, links: MediaLinks(request: request, service: service), into: &out)
        return JSONBytes.response(out + [0x0A])
    }

    func remove(_ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        _ = try await service.recording(id: id, for: context.caller)
        let roll = service.roll
        _ = try await withTaskExecutorPreference(files) { try await roll.remove(ids: [id]) }
        return Response(status: .noContent)
    }

    func set(_ mark: VideoMark, _ on: Bool, _ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try context.parameters.decoded("id")
        if mark == .like, let number = Int64(id), number >= SocialPost.firstID {
            // A post's likes are the catalog's exact count, one per user.
            let post = try await service.social.setLike(on, postID: number, viewer: context.caller.viewer(request))
            return JSONBytes.response(Array(#"{"id":\#(post.id),"liked":\#(post.liked),"bookmarked":false,"likes":\#(post.likes)}"#.utf8) + [0x0A])
        }
        guard let video = service.video(id: id) else {
            throw FeedError.unknownID(FeedID(parsing: id), source: service.feed.source)
        }
        let key = video.id.description
        let owner = context.caller.markOwner
        _ = try await service.roll.setMark(mark, on, videoID: key, feed: service.feed.key, owner: owner)
        let marks: Set<VideoMark> = try await service.roll.marks(videoID: key, feed: service.feed.key, owner: owner)
        var out = Array(#"{"id":"#.utf8)
        JSONBytes.string(key, into: &out)
        out.append(contentsOf: #","liked":\#(marks.contains(.like)),"bookmarked":\#(marks.contains(.bookmark))}"#.utf8)
        return JSONBytes.response(out + [0x0A])
    }

    /// The caller's feed videos carrying `mark`, most recently marked first, as `{"videos":[…]}`.
    func marked(_ mark: VideoMark, _ request: Request, _ context: ServerContext) async throws -> Response {
        let ids = try await service.roll.videoIDs(marked: mark, feed: service.feed.key, owner: context.caller.markOwner)
        let videos = ids.compactMap { service.video(id: $0) }
        let links = MediaLinks(request: request, service: service)
        return JSONBytes.response(LiverJSON.videos(videos, links: links.links))
    }

    /// A recording as `feed roll --json` writes it, plus where to play it from this server: `url`
    /// (the file, fast start), `preload_bytes` (its first picture's prefix), `poster_url` (a JPEG),
    /// `storyboard_url` (WebVTT cues into a sprite), `hls_url` (the ladder's master playlist) and
    /// `dash_url` (the same ladder's DASH manifest), each a signed link when the server has a key or a token.
    private func encode(_ recording: Recording, links: MediaLinks, into out: inout [UInt8]) {
        // Nothing of the server's disk: no `file`, and the paths it came from by name only.
        var shown = recording
        shown.originalPath = Self.name(recording.originalPath)
        shown.sources = recording.sources?.map(Self.name)
        var object: [UInt8] = []
        RecordingJSON.encode(shown, file: nil, into: &object)
        guard object.last == UInt8(ascii: "}") else { out += object; return }
        object.removeLast()
        object.append(contentsOf: #","url":"#.utf8)
        let url = links.roll(recording.id)
        JSONBytes.string(url, into: &object)
        object.append(contentsOf: #","original_url":"#.utf8)
        JSONBytes.string(url + (url.contains("?") ? "&" : "?") + "original=1", into: &object)
        object.append(contentsOf: #","preload_bytes":"#.utf8)
        // Known only of local files (a bucket's would be fetched to tell).
        if service.roll.media is FolderMediaStore, let bytes = service.fastStart.preloadBytes(for: service.roll.path(of: recording)) {
            object.append(contentsOf: String(bytes).utf8)
        } else {
            object.append(contentsOf: "null".utf8)
        }
        object.append(contentsOf: #","poster_url":"#.utf8)
        JSONBytes.string(links.local("/media/roll/\(recording.id)/thumb.jpg"), into: &object)
        object.append(contentsOf: #","storyboard_url":"#.utf8)
        JSONBytes.string(links.local("/media/roll/\(recording.id)/storyboard.vtt"), into: &object)
        object.append(contentsOf: #","hls_url":"#.utf8)
        JSONBytes.string(links.local("/roll/\(recording.id)/hls/master.m3u8"), into: &object)
        object.append(contentsOf: #","dash_url":"#.utf8)
        JSONBytes.string(links.local("/roll/\(recording.id)/hls/manifest.mpd"), into: &object)
        object.append(contentsOf: #","owner":"#.utf8)
        if let owner = recording.owner { JSONBytes.string(owner, into: &object) } else { object.append(contentsOf: "null".utf8) }
        object.append(UInt8(ascii: "}"))
        out += object
    }

    /// The last component of a path: what an answer over HTTP says of a file on the server.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
