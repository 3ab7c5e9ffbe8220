import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// People: `GET /users/{name}`, `PATCH /users/me`, `GET /users/{name}/videos`,
/// `GET /users/{name}/followers` and `…/following`, `PUT`/`DELETE /users/{name}/follow` and
/// `…/block`, and `GET /feed/following`: the posts of the people the caller follows.
struct UsersRoutes {
    let service: FeedService
    /// Follows with their webhook event.
    let social: Social

    func register(on router: RouteRecorder) {
        router.get("users/:name") { request, context in try await profile(request, context) }
        router.patch("users/me") { request, context in try await edit(request, context) }
        router.get("users/:name/videos") { request, context in try await videos(request, context) }
        for direction in [FollowDirection.followers, .following] {
            router.get(RouterPath("users/:name/\(direction.rawValue)")) { request, context in try await follows(direction, request, context) }
        }
        router.put("users/:name/follow") { request, context in try await follow(true, request, context) }
        router.delete("users/:name/follow") { request, context in try await follow(false, request, context) }
        router.put("users/:name/block") { request, context in try await block(true, request, context) }
        router.delete("users/:name/block") { request, context in try await block(false, request, context) }
        router.get("feed/following") { request, context in try await following(request, context) }
    }

    func profile(_ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.require("name")
        let profile = try await service.social.profile(name: name, viewer: context.caller.viewer(request))
        var out: [UInt8] = []
        SocialJSON.encode(profile, links: MediaLinks(request: request, service: service), into: &out)
        return JSONBytes.response(out + [0x0A])
    }

    private struct Edit: Decodable {
        var displayName: String?
        var bio: String?
        var avatarRecording: Int64??

        enum CodingKeys: String, CodingKey { case displayName = "display_name", bio, avatarRecording = "avatar_recording" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            bio = try container.decodeIfPresent(String.self, forKey: .bio)
            // Absent: unchanged; null: no avatar; a number: that recording's poster.
            if container.contains(.avatarRecording) { avatarRecording = .some(try container.decodeIfPresent(Int64.self, forKey: .avatarRecording)) }
        }
    }

    func edit(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await SocialRequest.body(request, Edit.self, route: "PATCH /users/me",
                                                shape: #"{"display_name":"…","bio":"…","avatar_recording":ID|null}"#)
        let name = try context.caller.viewer(request).actingUser("editing a profile")
        let profile = try await service.social.editProfile(name: name, ProfileEdit(displayName: body.displayName, bio: body.bio, avatarRecording: body.avatarRecording))
        var out: [UInt8] = []
        SocialJSON.encode(profile, links: MediaLinks(request: request, service: service), into: &out)
        return JSONBytes.response(out + [0x0A])
    }

    func videos(_ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.require("name")
        let viewer = context.caller.viewer(request)
        _ = try await service.social.profile(name: name, viewer: viewer)
        return try await page(.author(name), request, viewer)
    }

    func following(_ request: Request, _ context: ServerContext) async throws -> Response {
        try await page(.following, request, context.caller.viewer(request))
    }

    /// A cursor page of posts, newest first.
    private func page(_ scope: PostQuery.Scope, _ request: Request, _ viewer: Viewer) async throws -> Response {
        let limit = try SocialRequest.limit(request), before = try SocialRequest.cursor(request)
        let social = service.social
        let (posts, next) = try await SocialRequest.page(limit: limit, cursor: \SocialPost.id) { count in
            try await social.posts(PostQuery(scope: scope, before: before, limit: count), viewer: viewer)
        }
        return JSONBytes.response(SocialJSON.page(posts, next: next, links: PostLinks(request: MediaLinks(request: request, service: service), service: service)))
    }

    func follows(_ direction: FollowDirection, _ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.require("name")
        let limit = try SocialRequest.limit(request), before = try SocialRequest.cursor(request)
        let social = service.social
        let (entries, next) = try await SocialRequest.page(limit: limit, cursor: \FollowEntry.cursor) { count in
            try await social.follows(of: name, direction, before: before, limit: count)
        }
        return JSONBytes.response(SocialJSON.follows(entries, next: next))
    }

    func follow(_ on: Bool, _ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.require("name")
        let me = try context.caller.viewer(request).actingUser("following")
        _ = try await social.setFollow(on, follower: me, followee: name)
        return Response(status: .noContent)
    }

    func block(_ on: Bool, _ request: Request, _ context: ServerContext) async throws -> Response {
        let name = try context.parameters.require("name")
        let me = try context.caller.viewer(request).actingUser("blocking")
        _ = try await service.social.setBlock(on, blocker: me, blocked: name)
        return Response(status: .noContent)
    }
}
