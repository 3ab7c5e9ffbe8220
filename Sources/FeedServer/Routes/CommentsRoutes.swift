import FeedCore
import Foundation
import Hummingbird

/// `GET /comments` (LIVEr's `{"comments":[…]}`: all of them, the feed's then the posted ones;
/// with `?limit=` a page, newest first, and a `next_cursor`), `POST /comments`
/// (`{"username":…,"comment":…}` → 201 with the stored comment, kept in the roll's database and
/// shown by `feed comments`), and `GET /comments/live`: Server-Sent Events, one
/// `event: comment` every 2 s (`?interval=` seconds), cycling like `feed comments --follow`, new
/// comments joining the cycle. No request reads every stored comment but the unpaged list: a
/// post answers from its insert, a page reads a page, a live stream a page at a time.
struct CommentsRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("comments") { request, _ in try await list(request) }
        router.post("comments") { request, context in try await post(request, context) }
        router.get("comments/live") { request, context in try await live(request, context) }
        router.head("comments/live") { request, context in try await live(request, context).headOfStream() }
    }

    /// Stored comments' ids start after the feed's own.
    var base: Int64 { Comment.storedIDBase(service.feed.comments) }

    func list(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard parameters["limit"] != nil || parameters["cursor"] != nil else {
            return JSONBytes.response(LiverJSON.comments(try await all()))
        }
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...1000).contains(limit) else { throw RequestFailure.usage("limit must be 1…1000, not \(limit)") }
        var cursor = CommentCursor.start
        if let text = parameters["cursor"] {
            guard let parsed = CommentCursor(String(text)) else { throw RequestFailure.usage("cursor \(text) is not one this server gave") }
            cursor = parsed
        }
        // Newest first: the posted ones (numbers descending), then the feed's, last to first.
        var page: [Comment] = []
        var next: CommentCursor?
        if case .stored(let before) = cursor {
            let rows = try await service.roll.catalog.storedComments(before: before, limit: limit + 1)
            page = rows.prefix(limit).map { Comment.stored($0, base: base) }
            if rows.count > limit { next = .stored(before: rows[limit - 1].number) }
            cursor = .feed(before: service.feed.comments.count)
        }
        if next == nil, case .feed(let before) = cursor, page.count < limit {
            let feed = service.feed.comments
            let end = min(max(before, 0), feed.count)
            let take = min(limit - page.count, end)
            page += feed[(end - take)..<end].reversed()
            if end - take > 0 { next = .feed(before: end - take) }
        }
        var out = Array(#"{"comments":["#.utf8)
        for (index, comment) in page.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            LiverJSON.encode(comment, into: &out)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        if let next { JSONBytes.string(next.description, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: "}\n".utf8)
        return JSONBytes.response(out)
    }

    func live(_ request: Request, _ context: ServerContext) async throws -> Response {
        var interval = service.configuration.commentInterval
        if let text = request.uri.queryParameters["interval"] {
            guard let value = Double(text), value >= 0.05, value <= 3600 else {
                throw RequestFailure.usage("interval must be seconds between 0.05 and 3600, not \(text)")
            }
            interval = value
        }
        let pause = interval
        let store = service.roll.catalog, base = self.base, feed = service.feed.comments
        let body = ResponseBody { writer in
            // The cycle: the feed's comments, then the stored ones in the order they were posted,
            // read a page at a time (what was posted since the last round joins at its end), then
            // again. A stream holds one page, and opening one reads nothing but that: its cost
            // does not grow with the number of comments stored.
            var page: [Comment] = [], position = 0, last: Int64 = 0
            var feedIndex = 0, index = 0, emptyRound = false
            // When the stream last sent anything; a stream with nothing to show says so at once.
            var lastWord = ContinuousClock.now - .seconds(15)
            while !Task.isCancelled {
                var comment: Comment?
                if feedIndex < feed.count {
                    comment = feed[feedIndex]
                    feedIndex += 1
                } else {
                    if position == page.count {
                        let rows = try await store.storedComments(after: last, limit: Self.livePage)
                        page = rows.map { Comment.stored($0, base: base) }
                        position = 0
                        last = rows.last?.number ?? last
                    }
                    if position < page.count {
                        comment = page[position]
                        position += 1
                    } else {
                        // The end of the stored ones: the next round starts at the feed's first.
                        feedIndex = 0
                        last = 0
                        page = []
                    }
                }
                guard let comment else {
                    // A round ended. With no feed comments, start the next one at once, unless the
                    // last round was empty too (nothing to show at all, yet: the stream waits for
                    // the first post): then wait a tick, and say so every 15 s, as a comment line
                    // SSE clients ignore, so the read timeouts of clients and proxies do not cut it.
                    if feed.isEmpty, emptyRound {
                        if ContinuousClock.now - lastWord >= .seconds(15) {
                            try await writer.write(ByteBuffer(string: ": waiting for a comment\n\n"))
                            lastWord = .now
                        }
                        try await Task.sleep(for: .seconds(pause))
                    }
                    emptyRound = feed.isEmpty
                    continue
                }
                emptyRound = false
                var event = Array("event: comment\nid: \(index)\ndata: ".utf8)
                LiverJSON.encode(comment, into: &event)
                event.append(contentsOf: "\n\n".utf8)
                try await writer.write(ByteBuffer(bytes: event))
                lastWord = .now
                index += 1
                try await Task.sleep(for: .seconds(pause))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: RequestRecord.streamed(body, context))
    }

    /// Stored comments a live stream reads at a time.
    static let livePage = 100

    /// The feed's comments, then the posted ones.
    func all() async throws -> [Comment] {
        Comment.merged(service.feed.comments, stored: try await service.roll.catalog.storedComments())
    }

    /// Body: a small JSON object.
    private struct Posted: Decodable { var username: String; var comment: String }

    func post(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let posted = try? JSONDecoder().decode(Posted.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage("POST /comments: the body must be {\"username\":…,\"comment\":…}")
        }
        if let problem = Comment.problem(username: posted.username, text: posted.comment) {
            throw RequestFailure(.invalidData, "POST /comments: \(problem)")
        }
        let number = try await service.roll.catalog.addComment(username: posted.username, text: posted.comment, owner: context.caller.rowOwner)
        let stored = Comment.stored((number, posted.username, posted.comment), base: base)
        var out: [UInt8] = []
        LiverJSON.encode(stored, into: &out)
        return JSONBytes.response(out + [0x0A], status: .created)
    }
}
