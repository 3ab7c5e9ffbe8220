import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// What the social routes read of a request: a JSON body, an id in the path, a page's size and
/// cursor; each refusal one line naming the route and the field.
enum SocialRequest {
    /// The body as `T`, or a 400 naming the route and the shape it takes.
    static func body<T: Decodable>(_ request: Request, _ type: T.Type, route: String, shape: String) async throws -> T {
        let body = try await request.body.collect(upTo: 64 * 1024)
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: body)) } catch {
            throw RequestFailure.usage("\(route): the body must be \(shape)")
        }
    }

    /// A post or comment id from the path, or a 404 for one that cannot be an id.
    static func id(_ context: ServerContext, _ name: String = "id", what: String) throws -> Int64 {
        let text = try context.parameters.require(name)
        guard let id = Int64(text), id > 0 else { throw RequestFailure.notFound("no \(what) \(text)") }
        return id
    }

    /// `?limit=` (1…100, default 20).
    static func limit(_ request: Request) throws -> Int {
        let limit = try VideosRoutes.count(request, "limit") ?? 20
        guard (1...100).contains(limit) else { throw RequestFailure.usage("limit must be 1…100, not \(limit)") }
        return limit
    }

    /// `?cursor=`: an id a previous page ended on; nil for the first page.
    static func cursor(_ request: Request) throws -> Int64? {
        guard let text = request.uri.queryParameters["cursor"] else { return nil }
        guard let value = Int64(text), value > 0, String(value) == text else { throw RequestFailure.usage("cursor \(text) is not one this server gave") }
        return value
    }

    /// Reads `limit + 1` rows through `fetch` and returns a page and the cursor after it.
    static func page<Item>(limit: Int, cursor: (Item) -> Int64, _ fetch: (Int) async throws -> [Item]) async throws -> ([Item], String?) {
        let rows = try await fetch(limit + 1)
        let shown = Array(rows.prefix(limit))
        return (shown, rows.count > limit ? shown.last.map { String(cursor($0)) } : nil)
    }
}
