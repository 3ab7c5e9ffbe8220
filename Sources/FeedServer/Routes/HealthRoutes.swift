import FeedCore
import FeedJobs
import Hummingbird

/// `GET /healthz`: whether this server can do its work, for a load balancer, a container's health
/// check or a monitor. 200 `{"status":"ok"}` once the catalog answers a query (the roll's count:
/// SQLite's file, or PostgreSQL over the pool); 503, kind `unavailable`, when it does not or
/// takes more than `--catalog-timeout` (so a check never times out), the
/// whole message in the server's log and none of it in the answer; 503 too while the server's job
/// runner has stopped claiming for a fault of its own (``JobRunner/stoppedReason``: its media
/// or disk), saying so. Open to everyone, token or not: it says nothing more. Never cached.
struct HealthRoutes {
    let service: FeedService
    /// The server's job runner (nil with `--jobs 0`).
    let runner: JobRunner?
    /// Where a failed check's message goes (stderr unless `--quiet`).
    let log: (@Sendable (String) -> Void)?

    /// The body of a healthy answer.
    static let healthy = ByteBuffer(string: "{\"status\":\"ok\"}\n")

    func register(on router: RouteRecorder) {
        router.get("healthz", use: health)
    }

    @Sendable func health(_ request: Request, _ context: ServerContext) async throws -> Response {
        do {
            let roll = service.roll
            _ = try await CatalogDeadline.run(seconds: service.configuration.catalogTimeout) { try await roll.count() }
        } catch {
            log?("\(request.method.rawValue) \(request.uri.path): the catalog does not answer: \(error)")
            throw APIError(.serviceUnavailable, kind: .unavailable,
                           "\(request.method.rawValue) \(request.uri.path): the catalog does not answer (the server's log has the details)",
                           headers: [.cacheControl: "no-store"])
        }
        if let runner, await runner.stoppedReason != nil {
            throw APIError(.serviceUnavailable, kind: .unavailable,
                           "\(request.method.rawValue) \(request.uri.path): the job runner stopped claiming jobs, for a fault of this server's "
                           + "(its media or its disk; the server's log has the details)",
                           headers: [.cacheControl: "no-store"])
        }
        return JSONBytes.response(Self.healthy, headers: [.cacheControl: "no-store"])
    }
}
