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

    private var store: any WebhookStore {
        get throws {
            guard let store = service.roll.webhookStore else { throw RequestFailure(.unavailable, "this catalog keeps no webhooks") }
            return store
        }
    }

    private struct NewEndpoint: Decodable { var url: String; var secret: String }

    func add(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let new = try? JSONDecoder().decode(NewEndpoint.self, from: Data(buffer: body)) else {
            throw RequestFailure.usage(#"POST /webhooks: the body must be {"url":…,"secret":…}"#)
        }
        if let problem = Self.problem(url: new.url, secret: new.secret) { throw RequestFailure(.invalidData, "POST /webhooks: \(problem)") }
        let endpoint = try await store.addWebhook(url: new.url, secret: new.secret)
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
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0, try await store.removeWebhook(id: id) else {
            throw RequestFailure.notFound("no webhook has id \(text)")
        }
        return Response(status: .noContent)
    }

    /// The newest deliveries (at most `limit`, 1…1000, default 50) among the newest 1000 jobs.
    func deliveries(_ request: Request) async throws -> Response {
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...1000).contains(limit) else { throw RequestFailure.usage("limit must be 1…1000, not \(limit)") }
        let jobs = try await service.roll.jobStore.jobs(state: nil, limit: 1000).filter { $0.kind == JobKind.webhook.rawValue }
        var out = Array(#"{"deliveries":["#.utf8)
        for (index, job) in jobs.prefix(limit).enumerated() {
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

    /// What is wrong with an endpoint, or nil.
    static func problem(url: String, secret: String) -> String? {
        guard isEndpoint(url) else { return "url must be http:// or https://, a host, a port maybe and a path of printable ASCII" }
        guard secret.utf8.count >= 16, secret.unicodeScalars.count <= 1024 else { return "secret must be 16…1024 characters (16 bytes at least)" }
        // NUL cannot be stored (PostgreSQL) and no control character belongs in a secret.
        if secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "secret holds control characters" }
        return nil
    }

    /// Whether `url` matches the document's pattern, `^https?://[A-Za-z0-9.-]+(:[0-9]{1,4})?(/[!-~]*)?$`,
    /// 2048 bytes at most.
    static func isEndpoint(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count <= 2048 else { return false }
        var index: Int
        if url.hasPrefix("https://") { index = 8 } else if url.hasPrefix("http://") { index = 7 } else { return false }
        func isHost(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
        }
        let hostStart = index
        while index < bytes.count, isHost(bytes[index]) { index += 1 }
        guard index > hostStart else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let digits = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard (1...4).contains(index - digits) else { return false }
        }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "/") else { return false }
            return bytes[(index + 1)...].allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
        }
        return true
    }
}
