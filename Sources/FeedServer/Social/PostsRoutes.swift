import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// Publishing: `POST /videos` (a recording becomes a post), `PATCH` and `DELETE /videos/{id}`,
/// `POST /videos/{id}/share`, `POST /videos/{id}/report`, and the admin's `POST`/`DELETE
/// /videos/{id}/hide`. Listing posts is ``VideosRoutes``' (`GET /videos`, `GET /videos/{id}`).
struct PostsRoutes {
    let service: FeedService
    /// Publishing and reporting with what follows them (poster, ladder, webhooks).
    let social: Social

    func register(on router: RouteRecorder) {
        router.post("videos") { request, context in try await publish(request, context) }
        router.patch("videos/:id") { request, context in try await edit(request, context) }
        router.delete("videos/:id") { request, context in try await unpublish(request, context) }
        router.post("videos/:id/share") { request, context in try await share(request, context) }
        router.post("videos/:id/report") { request, context in try await report(.post(try SocialRequest.id(context, what: "post")), request, context) }
        router.post("videos/:id/hide") { request, context in try await hide(true, .post(try SocialRequest.id(context, what: "post")), context) }
        router.delete("videos/:id/hide") { request, context in try await hide(false, .post(try SocialRequest.id(context, what: "post")), context) }
    }

    private struct Publication: Decodable {
        var recording: Int64
        var description: String?
        var visibility: Visibility?
        var author: String?
    }

    func publish(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await SocialRequest.body(request, Publication.self, route: "POST /videos",
                                                shape: #"{"recording":ID,"description":"…","visibility":"public"|"followers"|"private"}"#)
        let viewer = context.caller.viewer(request)
        let draft = PostDraft(recordingID: body.recording, viewer: viewer, author: viewer.isAdmin ? body.author : nil,
                              text: try PostText(validating: body.description ?? ""), visibility: body.visibility ?? .public)
        let post = try await social.publish(draft)
        return respond(post, request, status: .created, location: true)
    }

    private struct Edit: Decodable {
        var description: String?
        var visibility: Visibility?
    }

    func edit(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try SocialRequest.id(context, what: "post")
        let body = try await SocialRequest.body(request, Edit.self, route: "PATCH /videos/\(id)",
                                                shape: #"{"description":"…","visibility":"public"|"followers"|"private"}"#)
        let text = try body.description.map { (text) throws(SocialError) in try PostText(validating: text) }
        let post = try await service.social.editPost(id: id, viewer: context.caller.viewer(request), text: text, visibility: body.visibility)
        return respond(post, request)
    }

    func unpublish(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try SocialRequest.id(context, what: "post")
        _ = try await social.unpublish(id: id, viewer: context.caller.viewer(request))
        return Response(status: .noContent)
    }

    func share(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try SocialRequest.id(context, what: "post")
        let post = try await service.social.share(postID: id, viewer: context.caller.viewer(request))
        let links = MediaLinks(request: request, service: service)
        var out = Array(#"{"id":\#(post.id),"shares":\#(post.shares),"url":"#.utf8)
        JSONBytes.string(links.base + "/videos/\(post.id)", into: &out)
        out.append(contentsOf: "}\n".utf8)
        return JSONBytes.response(out)
    }

    private struct Filing: Decodable {
        var reason: Report.Reason
        var note: String?
    }

    func report(_ target: Report.Target, _ request: Request, _ context: ServerContext) async throws -> Response {
        let reasons = Report.Reason.allCases.map(\.rawValue).joined(separator: "|")
        let body = try await SocialRequest.body(request, Filing.self, route: "POST \(request.uri.path)", shape: #"{"reason":"\#(reasons)","note":"…"}"#)
        let report = try await social.report(target, viewer: context.caller.viewer(request), reason: body.reason, note: body.note ?? "")
        var out: [UInt8] = []
        SocialJSON.encode(report, into: &out)
        return JSONBytes.response(out + [0x0A], status: .created)
    }

    func hide(_ hidden: Bool, _ target: Report.Target, _ context: ServerContext) async throws -> Response {
        _ = try await service.social.setHidden(hidden, target)
        return Response(status: .noContent)
    }

    /// A post as JSON.
    func respond(_ post: SocialPost, _ request: Request, status: HTTPResponse.Status = .ok, location: Bool = false) -> Response {
        SocialJSON.response(post, links: PostLinks(request: MediaLinks(request: request, service: service), service: service), status: status,
                            headers: location ? [.location: "/videos/\(post.id)"] : [:])
    }
}
