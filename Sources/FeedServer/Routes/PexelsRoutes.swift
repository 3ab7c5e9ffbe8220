import FeedCore
import FeedSocial
import Foundation
import HTTPTypes
import Hummingbird

/// Pexels-compatible `GET /v1/videos/search?query=&page=&per_page=` and `GET /v1/videos/popular`,
/// in Pexels' exact response shape, with `X-Ratelimit-*` headers, so an app built on Pexels
/// points its base URL here. `per_page` defaults to 15; above 80 it is 80, as Pexels answers.
struct PexelsRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("v1/videos/search") { request, context in try await respond(request, context, search: true) }
        router.get("v1/videos/popular") { request, context in try await respond(request, context, search: false) }
    }

    func respond(_ request: Request, _ context: ServerContext, search: Bool) async throws -> Response {
        let parameters = request.uri.queryParameters
        let page = try VideosRoutes.count(request, "page") ?? 1
        // Pexels caps per_page at 80 rather than refusing more: an app written against it asks for more.
        let perPage = min(80, try VideosRoutes.count(request, "per_page") ?? 15)
        guard page >= 1 else { throw RequestFailure.usage("page must be 1 or more, not \(page)") }
        guard perPage >= 1 else { throw RequestFailure.usage("per_page must be 1 or more, not \(perPage)") }
        let query = parameters["query"].map(String.init) ?? ""
        if search && query.trimmingCharacters(in: .whitespaces).isEmpty {
            throw RequestFailure.usage("query is required: /v1/videos/search?query=…")
        }
        let links = MediaLinks(request: request, service: service)
        func answer<Videos: RandomAccessCollection<Video>>(_ videos: Videos) -> PexelsPage where Videos.Index == Int {
            PexelsPage(videos: videos, page: page, perPage: perPage, query: query, search: search, links: links)
        }
        // The posts the caller may see come first (search: newest first; popular: merged by likes),
        // as many as the page needs, counted no further than ``postsConsidered``.
        let (product, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        let wanted = overflow ? Self.postsConsidered : min(Self.postsConsidered, product + perPage)
        // A NUL separates words too: no database keeps one in text.
        let words = query.lowercased().split(whereSeparator: { $0 == " " || $0 == "+" || $0 == "\0" }).map(String.init)
        let viewer = context.caller.viewer(request)
        let found = try await service.social.posts(PostQuery(words: search ? words : [], order: search ? .newest : .mostLiked, limit: wanted + 1),
                                                   viewer: viewer)
        let postLinks = PostLinks(request: links, service: service)
        let posts = found.map { Self.video($0, links: postLinks) }
        let body: PexelsPage
        if posts.isEmpty {
            body = search ? answer(service.search.matches(query)) : answer(service.popular)
        } else {
            // Only the feed's videos a page this far can show are put beside the posts; the
            // total counts them all.
            let matches = search ? service.search.matches(query) : nil
            let fileTotal = matches?.count ?? service.popular.count
            let windowEnd = overflow ? 0 : product + perPage
            let head = matches.map { Array($0.prefix(windowEnd)) } ?? Array(service.popular.prefix(windowEnd))
            let all = search ? posts + head : Self.merged(posts, head)
            body = PexelsPage(videos: all, page: page, perPage: perPage, query: query, search: search, links: links, total: posts.count + fileTotal)
        }
        // Pexels' headers: the caller's own bucket with `--rate`, else Pexels' monthly figures.
        let standing = context.rate ?? RateStanding(limit: 20000, remaining: 19999, reset: Int(Date().timeIntervalSince1970) + 30 * 24 * 3600)
        return try JSONBytes.response(encoding: body, headers: [
            HTTPField.Name("X-Ratelimit-Limit")!: String(standing.limit),
            HTTPField.Name("X-Ratelimit-Remaining")!: String(standing.remaining),
            HTTPField.Name("X-Ratelimit-Reset")!: String(standing.reset),
        ])
    }
}

/// One page of a Pexels video response: `page`, `per_page`, `total_results`, `url`,
/// `next_page`, `prev_page` (present only when there is one), `videos`.
extension PexelsRoutes {
    /// The most posts a Pexels listing takes in (its `total_results` counts no further).
    static let postsConsidered = 10_000

    /// A post as the feed's videos are, its media as this server's links.
    static func video(_ post: SocialPost, links: PostLinks) -> Video {
        Video(id: .int(post.id), username: post.author, description: post.text.text, likes: Int(clamping: post.likes),
              video: URL(string: links.video(post)), thumbnail: URL(string: links.poster(post)), hashtags: post.text.hashtags,
              duration: post.media.duration, width: post.media.width, height: post.media.height)
    }

    /// Two lists most liked first (then most viewed) as one, ties to the first.
    static func merged(_ first: [Video], _ second: [Video]) -> [Video] {
        var out: [Video] = [], i = 0, j = 0
        out.reserveCapacity(first.count + second.count)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && (first[i].likes, first[i].viewers) >= (second[j].likes, second[j].viewers)) {
                out.append(first[i]); i += 1
            } else {
                out.append(second[j]); j += 1
            }
        }
        return out
    }
}

struct PexelsPage: Encodable {
    struct User: Encodable { var id: Int64; var name: String; var url: String }
    struct File: Encodable {
        var id: Int64, quality: String?, fileType: String, width: Int?, height: Int?, fps: Double?, link: String
        /// feed's addition: the leading bytes that hold the first picture (null when unknown).
        var preloadBytes: Int64?
        enum CodingKeys: String, CodingKey { case id, quality, fileType = "file_type", width, height, fps, link, preloadBytes = "preload_bytes" }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(quality, forKey: .quality)
            try c.encode(fileType, forKey: .fileType)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(fps, forKey: .fps)
            try c.encode(link, forKey: .link)
            try c.encode(preloadBytes, forKey: .preloadBytes)
        }
    }
    struct Picture: Encodable { var id: Int64; var picture: String; var nr: Int }
    struct Item: Encodable {
        var id: Int64, width: Int, height: Int, duration: Int, image: String?, url: String
        var user: User, videoFiles: [File], videoPictures: [Picture]
        enum CodingKeys: String, CodingKey {
            case id, width, height, duration, image, url, user, videoFiles = "video_files", videoPictures = "video_pictures"
        }

        /// Every key, `image` as null for a video with no thumbnail (the contract requires it).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(duration, forKey: .duration)
            try c.encode(image, forKey: .image)
            try c.encode(url, forKey: .url)
            try c.encode(user, forKey: .user)
            try c.encode(videoFiles, forKey: .videoFiles)
            try c.encode(videoPictures, forKey: .videoPictures)
        }
    }

    var page: Int, perPage: Int, totalResults: Int, url: String
    var nextPage: String?, prevPage: String?
    var videos: [Item]

    enum CodingKeys: String, CodingKey {
        case page, perPage = "per_page", totalResults = "total_results", url, nextPage = "next_page", prevPage = "prev_page", videos
    }

    init<Videos: RandomAccessCollection<Video>>(videos all: Videos, page: Int, perPage: Int, query: String, search: Bool,
                                                links: MediaLinks, total: Int? = nil) where Videos.Index == Int {
        self.page = page
        self.perPage = perPage
        totalResults = total ?? all.count
        let path = search ? "/v1/videos/search" : "/v1/videos/popular"
        func pageURL(_ n: Int) -> String {
            var items = [URLQueryItem(name: "page", value: String(n)), URLQueryItem(name: "per_page", value: String(perPage))]
            if search { items.insert(URLQueryItem(name: "query", value: query), at: 0) }
            var components = URLComponents()
            components.queryItems = items
            return links.base + path + "?" + (components.percentEncodedQuery ?? "")
        }
        url = links.base + "/videos"
        // Any page may be asked for, however far past the end (`page=2305843009213693953`):
        // one that overflows starts past the end, an empty page.
        let (product, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        let start = overflow ? all.count : min(product, all.count)
        nextPage = start + perPage < totalResults ? pageURL(page + 1) : nil
        prevPage = page > 1 ? pageURL(page - 1) : nil
        let slice = all[start..<min(all.count, start + perPage)]
        videos = slice.enumerated().map { offset, video in
            let id = Self.numericID(video.id, fallback: Int64(start + offset + 1))
            let link = links.links(video)
            let width = video.width ?? 0, height = video.height ?? 0
            let file = File(id: id, quality: width >= 1280 || height >= 1280 ? "hd" : "sd",
                            fileType: FileResponse.contentType(forExtension: ((video.videoReference?.text ?? "") as NSString).pathExtension),
                            width: video.width, height: video.height, fps: nil, link: link.video ?? "", preloadBytes: link.preloadBytes)
            let userID = video.userID.map { Self.numericID($0, fallback: 0) } ?? 0
            return Item(id: id, width: width, height: height, duration: Int(saturating: (video.duration ?? 0).rounded()),
                        image: link.thumbnail, url: links.base + "/videos/" + MediaLinks.pathSegment(video.id.description),
                        user: User(id: userID, name: video.username, url: links.base + "/videos?user=" + MediaLinks.pathSegment(video.username)),
                        videoFiles: link.video == nil ? [] : [file],
                        videoPictures: link.thumbnail.map { [Picture(id: id, picture: $0, nr: 0)] } ?? [])
        }
    }

    /// Pexels ids are numbers: a numeric feed id as is, else a stable stand-in.
    static func numericID(_ id: FeedID, fallback: Int64) -> Int64 {
        Int64(id.description) ?? fallback
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(page, forKey: .page)
        try c.encode(perPage, forKey: .perPage)
        try c.encode(totalResults, forKey: .totalResults)
        try c.encode(url, forKey: .url)
        try c.encodeIfPresent(nextPage, forKey: .nextPage)
        try c.encodeIfPresent(prevPage, forKey: .prevPage)
        try c.encode(videos, forKey: .videos)
    }
}
