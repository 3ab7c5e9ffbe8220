import FeedAccess
import FeedCore
import FeedRecs
import FeedSocial
import Foundation
import Hummingbird

/// `GET /feed/for-you?limit=&cursor=&device=`: the caller's next videos, in LIVEr's shape plus
/// a post's fields and `reason` (with `reason_video` for `similar_to` and `reason_topic` for
/// `topic`). A signed-in user's page (as ``Caller/viewer(_:)`` names them); a client with no
/// user names its `device` and sees what anyone may see; guests sharing a `read` token name
/// their device too, and see what the token's user may.
struct ForYouRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("feed/for-you") { request, context in try await forYou(request, context) }
    }

    func forYou(_ request: Request, _ context: ServerContext) async throws -> Response {
        guard let recs = service.recs else { throw RecsError.store(.store(message: "this catalog keeps no events", kind: .unavailable)) }
        let limit = try SocialRequest.limit(request)
        let cursor = try request.uri.queryParameters["cursor"].map { text throws(RecsError) in try ForYouCursor(text: String(text)) }
        var viewer = context.caller.viewer(request)
        let device = request.uri.queryParameters["device"].map(String.init)
        // Whose page: as POST /events decides whose events (a signed-in user's; else the device
        // named, as a read token shared by an app's guests does; else the read token's sub).
        let signedIn = context.caller.credential == .none || context.caller.has(.upload)
        let actor: EventActor
        if let name = viewer.name, signedIn || device == nil {
            actor = .user(name)
        } else {
            actor = try Recs.actor(user: nil, device: device, what: "GET /feed/for-you")
            // A device with no user sees what anyone may (on an open server the caller is
            // otherwise the admin); a shared read token's guests see what its sub may.
            if viewer.name == nil { viewer = .anonymous }
        }
        let page = try await recs.forYou(actor: actor, viewer: viewer, limit: limit, cursor: cursor)
        let links = PostLinks(request: MediaLinks(request: request, service: service), service: service)
        var out = Array(#"{"videos":["#.utf8)
        for (index, item) in page.items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            RecsJSON.encode(item, links: links, into: &out)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        JSONBytes.string(page.next.text, into: &out)
        out.append(contentsOf: #","model_version":\#(page.modelVersion.map(String.init) ?? "null")}"#.utf8)
        out.append(0x0A)
        return JSONBytes.response(out)
    }
}
