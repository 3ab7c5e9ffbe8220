import FeedCore
import FeedSocial
import Foundation
import Hummingbird
import NIOCore

/// `GET /videos`, `GET /videos/{id}` (LIVEr's shape) and `GET /posts` (FeedsApp's). The list is
/// the catalog's posts the caller may see, then the `--feed` file's videos (read-only).
struct VideosRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("videos") { request, context in try await list(request, context) }
        router.get("videos/:id") { request, context in try await one(request, context, id: try context.parameters.decoded("id")) }
        router.get("posts") { request, context in try await posts(request, context) }
    }

    /// `{"videos":[…],"next_cursor":…}`: the posts the caller may see (newest first by default),
    /// then the feed's videos, with `feed list`'s query (sort, reverse, topic, user, tag, limit,
    /// offset) over both, and `cursor` (the default order only): `p<id>` pages on below a post,
    /// `f<index>` into the feed's videos. Without `limit`, a page holds at most
    /// ``postsWithoutLimit`` posts and every video of the feed.
    func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let query = try Self.query(request)
        let links = MediaLinks(request: request, service: service)
        let cursor = try VideoCursor.parse(request, query: query)
        let pageSize = FeedQuery.pageSize(query.limit)
        var posts: [SocialPost] = [], next: String?, fileStart = 0
        if case .post(let before) = cursor, let postQuery = postQuery(query, before: before, cursor: cursor != .start) {
            var window = postQuery
            let postLimit = min(pageSize ?? Self.postsWithoutLimit, Self.postsWithoutLimit)
            window.limit = postLimit + 1
            let viewer = context.caller.viewer(request)
            let rows = try await service.social.posts(window, viewer: viewer)
            posts = Array(rows.prefix(postLimit))
            if rows.count > postLimit {
                // More posts: the page ends in them (offset paging goes on with offset + limit).
                next = postQuery.order == .newest ? posts.last.map { VideoCursor.post(before: $0.id).description } : nil
                return JSONBytes.response(page(posts, files: nil, next: next, links: links))
            }
            if posts.isEmpty, postQuery.offset > 0 {
                // The offset runs past the posts: into the feed by what is left of it.
                fileStart = postQuery.offset - (try await service.social.visiblePostCount(postQuery, viewer: viewer, upTo: postQuery.offset))
            }
        } else if case .file(let index) = cursor {
            fileStart = index
        } else if cursor == .start {
            fileStart = query.offset
        }
        var fileQuery = query
        fileQuery.offset = fileStart
        let remaining = pageSize.map { $0 - posts.count }
        fileQuery.limit = remaining.map { $0 == Int.max ? $0 : $0 + 1 }
        if remaining == 0 {
            fileQuery.limit = 1
        }
        let key = "videos \(links.cacheKey)?\(fileQuery)"
        let found = fileQuery.apply(to: service.feed.videos)
        let shown = remaining.map { min($0, found.count) } ?? found.count
        if let remaining, found.count > remaining { next = VideoCursor.file(index: fileStart + remaining).description }
        let files = service.rendered.body(for: "\(key) \(shown)") {
            var out: [UInt8] = []
            for (index, video) in found.prefix(shown).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                LiverJSON.encode(video, links: links.links(video), into: &out)
            }
            return out
        }
        return JSONBytes.response(page(posts, files: shown > 0 ? files : nil, next: next, links: links))
    }

    /// The most posts a page without `limit` holds.
    static let postsWithoutLimit = 1000

    /// The catalog's side of `query`, or nil when no post can match (a topic: posts have none).
    private func postQuery(_ query: FeedQuery, before: Int64?, cursor: Bool) -> PostQuery? {
        guard query.topic == nil else { return nil }
        let order: PostQuery.Order = switch (query.sort, query.reverse) {
        case (.likes, false): .mostLiked
        case (.likes, true): .leastLiked
        case (.id, false), (.feed, true), (.viewers, true): .oldest
        case (.id, true), (.feed, false), (.viewers, false): .newest
        }
        return PostQuery(scope: query.user.map { .author($0) } ?? .all, tag: query.tag.flatMap(FeedQuery.hashtag).map { $0.lowercased() },
                         order: order, before: before, offset: cursor ? 0 : query.offset)
    }

    /// `{"videos":[posts…, files…],"next_cursor":…}`.
    private func page(_ posts: [SocialPost], files: ByteBuffer?, next: String?, links: MediaLinks) -> [UInt8] {
        var out = Array(#"{"videos":["#.utf8)
        let postLinks = PostLinks(request: links, service: service)
        for (index, post) in posts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            SocialJSON.encode(post, links: postLinks, into: &out)
        }
        if let files {
            if !posts.isEmpty { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: files.readableBytesView)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        SocialJSON.cursor(next, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    func one(_ request: Request, _ context: ServerContext, id: String) async throws -> Response {
        if let number = Int64(id), number >= SocialPost.firstID {
            let post = try await service.social.post(id: number, viewer: context.caller.viewer(request))
            return SocialJSON.response(post, links: PostLinks(request: MediaLinks(request: request, service: service), service: service))
        }
        guard let video = service.video(id: id) else {
            throw FeedError.unknownID(FeedID(parsing: id), source: service.feed.source)
        }
        let links = MediaLinks(request: request, service: service)
        var out: [UInt8] = []
        LiverJSON.encode(video, links: links.links(video), into: &out)
        return JSONBytes.response(out + [0x0A])
    }

    /// FeedsApp's post array: the catalog's posts the caller may see (newest first, at most
    /// ``postsWithoutLimit``), each its recording as one video medium, then a FeedsApp feed's
    /// posts, each local medium given as this server's `/media/posts/{id}/{index}`. 404 when
    /// there is neither (a feed of another format, and no post).
    func posts(_ request: Request, _ context: ServerContext) async throws -> Response {
        let found = try await service.social.posts(PostQuery(limit: Self.postsWithoutLimit), viewer: context.caller.viewer(request))
        guard service.feed.format == .feedsApp || !found.isEmpty else {
            throw RequestFailure.notFound("\(service.feed.source) is a \(service.feed.format.rawValue) feed, not a FeedsApp post array, and the catalog holds no post; see /videos")
        }
        let links = MediaLinks(request: request, service: service)
        let postLinks = PostLinks(request: links, service: service)
        var posts = found.map { post in
            Post(id: .int(post.id), title: post.author, description: post.text.text, upvoteCount: Int(clamping: post.likes),
                 commentCount: Int(clamping: post.comments), createdAt: post.createdAt, url: URL(string: links.base + "/videos/\(post.id)"),
                 media: [Media(id: .int(post.recordingID), type: .video, mimeType: "video/mp4", url: URL(string: postLinks.video(post)),
                               width: post.media.width, height: post.media.height,
                               metadata: Media.Metadata(duration: post.media.duration, hasSound: true))])
        }
        if service.feed.format == .feedsApp {
            posts += service.feed.posts.map { post in
                var post = post
                for index in post.media.indices {
                    if let url = links.post(post, medium: index) { post.media[index].reference = .url(url) }
                }
                return post
            }
        }
        return try JSONBytes.response(encoding: posts)
    }

    /// `feed list`'s options from a query string; a bad value is a 400 naming it.
    static func query(_ request: Request) throws -> FeedQuery {
        let parameters = request.uri.queryParameters
        var query = FeedQuery()
        if let sort = parameters["sort"] {
            guard let value = FeedQuery.Sort(rawValue: String(sort)) else {
                throw RequestFailure.usage("sort must be one of \(FeedQuery.Sort.allCases.map(\.rawValue).joined(separator: ", ")), not \(sort)")
            }
            query.sort = value
        }
        if let reverse = parameters["reverse"] { query.reverse = ["1", "true", "yes", ""].contains(reverse.lowercased()) }
        query.topic = parameters["topic"].map(String.init)
        query.user = parameters["user"].map(String.init)
        query.tag = parameters["tag"].map(String.init)
        query.limit = try count(request, "limit")
        query.offset = try count(request, "offset") ?? 0
        if let problem = query.problem() { throw RequestFailure.usage(problem) }
        return query
    }

    /// A non-negative integer parameter, or nil when absent.
    static func count(_ request: Request, _ name: String) throws -> Int? {
        guard let text = request.uri.queryParameters[Substring(name)] else { return nil }
        guard let value = Int(text), value >= 0 else { throw RequestFailure.usage("\(name) must be a whole number 0 or more, not \(text)") }
        return value
    }
}
