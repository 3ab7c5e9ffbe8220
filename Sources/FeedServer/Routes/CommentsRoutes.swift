import FeedCore
import Foundation
import Hummingbird

/// `GET /comments` (LIVEr's `{"comments":[…]}`) and `GET /comments/live`: Server-Sent Events,
/// one `event: comment` every 2 s (`?interval=` seconds), cycling like `feed comments --follow`.
struct CommentsRoutes {
    let service: FeedService

    func register(on router: Router<ServerContext>) {
        router.get("comments") { _, _ in JSONBytes.response(LiverJSON.comments(service.feed.comments)) }
        router.get("comments/live") { request, _ in try live(request) }
    }

    func live(_ request: Request) throws -> Response {
        var interval = service.configuration.commentInterval
        if let text = request.uri.queryParameters["interval"] {
            guard let value = Double(text), value >= 0.05, value <= 3600 else {
                throw APIError.badRequest("interval must be seconds between 0.05 and 3600, not \(text)")
            }
            interval = value
        }
        let comments = service.feed.comments, pause = interval
        guard !comments.isEmpty else { throw APIError.notFound("\(service.feed.source) has no comments") }
        let body = ResponseBody { writer in
            var index = 0
            // A comment at once, then one per interval until the client goes or the server stops.
            while !Task.isCancelled {
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
}
