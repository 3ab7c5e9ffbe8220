import FeedCore
import Foundation
import Hummingbird

/// `GET /comments` (LIVEr's `{"comments":[…]}`), `POST /comments` (`{"username":…,"comment":…}`
/// → 201 with the stored comment, kept in the roll's database and shown by `feed comments`), and
/// `GET /comments/live`: Server-Sent Events, one `event: comment` every 2 s (`?interval=`
/// seconds), cycling like `feed comments --follow`, new comments joining the cycle.
struct CommentsRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("comments") { _, _ in JSONBytes.response(LiverJSON.comments(try await all())) }
        router.post("comments") { request, _ in try await post(request) }
        router.get("comments/live") { request, _ in try await live(request) }
    }

    func live(_ request: Request) async throws -> Response {
        var interval = service.configuration.commentInterval
        if let text = request.uri.queryParameters["interval"] {
            guard let value = Double(text), value >= 0.05, value <= 3600 else {
                throw RequestFailure.usage("interval must be seconds between 0.05 and 3600, not \(text)")
            }
            interval = value
        }
        let pause = interval
        guard !(try await all()).isEmpty else { throw RequestFailure.notFound("\(service.feed.source) has no comments yet; POST /comments adds one") }
        let body = ResponseBody { writer in
            var index = 0
            // A comment at once, then one per interval until the client goes or the server stops;
            // the list is read again each time, so posted comments join the cycle.
            while !Task.isCancelled {
                let comments = try await all()
                var event = Array("event: comment\nid: \(index)\ndata: ".utf8)
                LiverJSON.encode(comments[index % comments.count], into: &event)
                event.append(contentsOf: "\n\n".utf8)
                try await writer.write(ByteBuffer(bytes: event))
                index += 1
                try await Task.sleep(for: .seconds(pause))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// The feed's comments, then the posted ones.
    func all() async throws -> [Comment] {
        Comment.merged(service.feed.comments, stored: try await service.roll.commentStore.storedComments())
    }

    /// Body: a small JSON object.
    private struct Posted: Decodable { var username: String; var comment: String }

    func post(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let posted = try? JSONDecoder().decode(Posted.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage("POST /comments: the body must be {\"username\":…,\"comment\":…}")
        }
        if let problem = Comment.problem(username: posted.username, text: posted.comment) {
            throw RequestFailure(.invalidData, "POST /comments: \(problem)")
        }
        let number = try await service.roll.commentStore.addComment(username: posted.username, text: posted.comment)
        let stored = try await all().last { $0.username == posted.username && $0.comment == posted.comment }
            ?? Comment(id: .int(number), username: posted.username, comment: posted.comment)
        var out: [UInt8] = []
        LiverJSON.encode(stored, into: &out)
        return JSONBytes.response(out + [0x0A], status: .created)
    }
}
