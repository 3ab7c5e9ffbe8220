import FeedCore
import FeedSocial
import Foundation
import Hummingbird

/// `GET /reports`: the admin's queue of reported posts and comments, newest first, paged.
struct ReportsRoutes {
    let service: FeedService

    func register(on router: RouteRecorder) {
        router.get("reports") { request, _ in try await list(request) }
    }

    func list(_ request: Request) async throws -> Response {
        let limit = try SocialRequest.limit(request), before = try SocialRequest.cursor(request)
        let social = service.social
        let (reports, next) = try await SocialRequest.page(limit: limit, cursor: \Report.id) { count in
            try await social.reports(before: before, limit: count)
        }
        return JSONBytes.response(SocialJSON.list("reports", reports, next: next) { report, out in SocialJSON.encode(report, into: &out) })
    }
}
