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
        var out = Array(#"{"reports":["#.utf8)
        for (index, report) in reports.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            SocialJSON.encode(report, into: &out)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        SocialJSON.cursor(next, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return JSONBytes.response(out)
    }
}
