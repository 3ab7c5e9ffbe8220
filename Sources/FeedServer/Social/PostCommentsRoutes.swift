import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// Per-video comments: `GET`/`POST /videos/{id}/comments`, `GET /comments/{id}/replies`,
/// `DELETE /comments/{id}`, `POST /comments/{id}/report` and the admin's `POST`/`DELETE
/// /comments/{id}/hide`. (`/comments` and `/comments/live` keep LIVEr's meaning:
/// ``CommentsRoutes``.)
struct PostCommentsRoutes {
    let service: FeedService
    /// Comments and reports with their webhook events.
    let social: Social

    func register(on router: RouteRecorder) {
        router.get("videos/:id/comments") { request, context in try await list(request, context) }
        router.post("videos/:id/comments") { request, context in try await add(request, context) }
        router.get("comments/:id/replies") { request, context in try await replies(request, context) }
        router.delete("comments/:id") { request, context in try await remove(request, context) }
        router.post("comments/:id/report") { request, context in
            try await PostsRoutes(service: service, social: social).report(.comment(try SocialRequest.id(context, what: "comment")), request, context)
        }
        router.post("comments/:id/hide") { request, context in
            try await PostsRoutes(service: service, social: social).hide(true, .comment(try SocialRequest.id(context, what: "comment")), context)
        }
        router.delete("comments/:id/hide") { request, context in
            try await PostsRoutes(service: service, social: social).hide(false, .comment(try SocialRequest.id(context, what: "comment")), context)
        }
    }

    func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let post = try SocialRequest.id(context, what: "post")
        return try await page(post: post, parent: nil, request, context)
    }

    func replies(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try SocialRequest.id(context, what: "comment")
        let comment = try await service.social.comment(id: id, viewer: context.caller.viewer(request))
        return try await page(post: comment.postID, parent: id, request, context)
    }

    private func page(post: Int64, parent: Int64?, _ request: Request, _ context: ServerContext) async throws -> Response {
        let limit = try SocialRequest.limit(request), before = try SocialRequest.cursor(request)
        let viewer = context.caller.viewer(request), social = service.social
        let (comments, next) = try await SocialRequest.page(limit: limit, cursor: \PostComment.id) { count in
            try await social.comments(postID: post, parent: parent, viewer: viewer, before: before, limit: count)
        }
        return JSONBytes.response(SocialJSON.comments(comments, next: next))
    }

    private struct Posted: Decodable {
        var comment: String
        var parent: Int64?
        var username: String?
    }

    func add(_ request: Request, _ context: ServerContext) async throws -> Response {
        let post = try SocialRequest.id(context, what: "post")
        let body = try await SocialRequest.body(request, Posted.self, route: "POST /videos/\(post)/comments", shape: #"{"comment":"…","parent":ID}"#)
        var viewer = context.caller.viewer(request)
        // An open server's caller is nobody in particular: it names the commenter, as LIVEr's
        // POST /comments does. A keyed server's caller is the commenter, whatever the body says.
        if context.caller.credential == .none, viewer.name == nil, let name = body.username, !name.isEmpty { viewer = Viewer(name: name) }
        let comment = try await social.addComment(postID: post, viewer: viewer, text: body.comment, parent: body.parent)
        var out: [UInt8] = []
        SocialJSON.encode(comment, into: &out)
        return JSONBytes.response(out + [0x0A], status: .created)
    }

    func remove(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try SocialRequest.id(context, what: "comment")
        _ = try await service.social.deleteComment(id: id, viewer: context.caller.viewer(request))
        return Response(status: .noContent)
    }
}
