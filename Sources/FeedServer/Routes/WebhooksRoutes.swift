import FeedCore
import Foundation
import Hummingbird

/// Webhook endpoints and their deliveries, admin only: `POST /webhooks` `{"url","secret"}`,
/// `GET /webhooks`, `DELETE /webhooks/{id}`, `GET /webhooks/deliveries?limit=`. Secrets are
/// written, never read back.
struct WebhooksRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.post("webhooks") { request, _ in try await add(request) }
        router.get("webhooks") { _, _ in try await list() }
        router.delete("webhooks/:id") { _, context in try await remove(context) }
        router.get("webhooks/deliveries") { request, _ in try await deliveries(request) }
    }

    private var store: any WebhookStore { service.roll.catalog }

    private struct NewEndpoint: Decodable { var url: String; var secret: String }

    func add(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let new = try? JSONDecoder().decode(NewEndpoint.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage(#"POST /webhooks: the body must be {"url":…,"secret":…}"#)
        }
        if let problem = WebhookEndpoint.problem(url: new.url, secret: new.secret) { throw RequestFailure(.invalidData, "POST /webhooks: \(problem)") }
        // Sealed in the catalog when the server has a key (--secrets-key-file).
        let sealed = try service.configuration.webhooks.secrets?.seal(new.secret) ?? new.secret
        let endpoint = try await store.addWebhook(url: new.url, secret: sealed)
        return JSONBytes.response(Self.encode(endpoint) + [0x0A], status: .created, headers: [.location: "/webhooks/\(endpoint.id)"])
    }

    func list() async throws -> Response {
        var out = Array(#"{"webhooks":["#.utf8)
        for (index, endpoint) in try await store.webhooks().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Self.encode(endpoint)
        }
        return JSONBytes.response(out + Array("]}\n".utf8))
    }

    func remove(_ context: ServerContext) async throws -> Response {
        let text = try context.parameters.decoded("id")
        guard let id = Int64(text), id > 0, try await store.removeWebhook(id: id) else {
            throw RequestFailure.notFound("no webhook has id \(text)")
        }
        return Response(status: .noContent)
    }

    /// The newest deliveries (at most `limit`, 1…1000, default 50), however many other jobs
    /// came after them: the store looks for their kind.
    func deliveries(_ request: Request) async throws -> Response {
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...1000).contains(limit) else { throw RequestFailure.usage("limit must be 1…1000, not \(limit)") }
        let jobs = try await service.roll.catalog.jobs(state: nil, kind: .webhook, limit: limit, ownedBy: nil)
        var out = Array(#"{"deliveries":["#.utf8)
        for (index, job) in jobs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += WebhookDeliveryJSON.bytes(job)
        }
        return JSONBytes.response(out + Array("]}\n".utf8))
    }

    /// `{"id","url","created_at"}`: never the secret.
    static func encode(_ endpoint: WebhookEndpoint) -> [UInt8] {
        var out = Array(#"{"id":\#(endpoint.id),"url":"#.utf8)
        JSONBytes.string(endpoint.url, into: &out)
        out += Array(#","created_at":"#.utf8)
        JSONBytes.string(Recording.iso8601(endpoint.createdAt), into: &out)
        return out + [UInt8(ascii: "}")]
    }
}
