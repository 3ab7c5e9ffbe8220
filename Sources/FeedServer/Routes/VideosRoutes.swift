import FeedCore
import Foundation
import Hummingbird

/// `GET /videos`, `GET /videos/{id}` (LIVEr's shape) and `GET /posts` (FeedsApp's).
struct VideosRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("videos") { request, _ in try list(request) }
        router.get("videos/:id") { request, context in try one(request, id: try context.parameters.decoded("id")) }
        router.get("posts") { request, _ in try posts(request) }
    }

    /// The feed's videos as `{"videos":[…]}`, with `feed list`'s query: sort, reverse, topic,
    /// user, tag, limit, offset.
    func list(_ request: Request) throws -> Response {
        let query = try Self.query(request)
        let links = MediaLinks(request: request, service: service)
        let body = service.rendered.body(for: "videos \(links.cacheKey)?\(request.uri.query ?? "")") {
            LiverJSON.videos(query.apply(to: service.feed.videos), links: links.links)
        }
        return JSONBytes.response(body)
    }

    func one(_ request: Request, id: String) throws -> Response {
        guard let video = service.video(id: id) else {
            throw FeedError.unknownID(FeedID(parsing: id), source: service.feed.source)
        }
        let links = MediaLinks(request: request, service: service)
        var out: [UInt8] = []
        LiverJSON.encode(video, links: links.links(video), into: &out)
        return JSONBytes.response(out + [0x0A])
    }

    /// The FeedsApp posts, each local medium given as this server's `/media/posts/{id}/{index}`.
    func posts(_ request: Request) throws -> Response {
        guard service.feed.format == .feedsApp else {
            throw RequestFailure.notFound("\(service.feed.source) is a \(service.feed.format.rawValue) feed, not a FeedsApp post array; see /videos")
        }
        let links = MediaLinks(request: request, service: service)
        let posts = service.feed.posts.map { post in
            var post = post
            for index in post.media.indices {
                if let url = links.post(post, medium: index) { post.media[index].reference = .url(url) }
            }
            return post
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
