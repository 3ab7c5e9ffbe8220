import FeedAccess
/// What a route needs of its caller when the server has a key or a token: the table docs/server.md's
/// authorization matrix shows, one row per route. (An open server, loopback without either,
/// lets everyone do everything.) A route missing here needs `admin`, and a test fails.
struct AccessRule: Sendable, Equatable {
    /// The scope needed; nil: nobody needs anything (the document, tus discovery, the health check).
    let scope: Scope?
    /// Whether a signed link (`?exp=&sig=`) may stand in for a bearer token (GET and HEAD only).
    let links: Bool

    static let open = AccessRule(scope: nil, links: false)
    static let read = AccessRule(scope: .read, links: false)
    static let media = AccessRule(scope: .read, links: true)
    static let upload = AccessRule(scope: .upload, links: false)
    static let admin = AccessRule(scope: .admin, links: false)

    /// Every route, `METHOD /path/{param}` as openapi.yaml writes it. HEAD takes GET's row
    /// unless it has its own.
    static let table: [String: AccessRule] = [
        "GET /videos": .read,
        "GET /videos/{id}": .read,
        "GET /posts": .read,
        "POST /videos": .upload,
        "PATCH /videos/{id}": .upload,
        "DELETE /videos/{id}": .upload,
        "POST /videos/{id}/share": .upload,
        "POST /videos/{id}/report": .upload,
        "POST /videos/{id}/hide": .admin,
        "DELETE /videos/{id}/hide": .admin,
        "GET /videos/{id}/comments": .read,
        "POST /videos/{id}/comments": .upload,
        "GET /comments/{id}/replies": .read,
        "DELETE /comments/{id}": .upload,
        "POST /comments/{id}/report": .upload,
        "POST /comments/{id}/hide": .admin,
        "DELETE /comments/{id}/hide": .admin,
        "GET /users/{name}": .read,
        "PATCH /users/me": .upload,
        "GET /users/{name}/videos": .read,
        "GET /users/{name}/followers": .read,
        "GET /users/{name}/following": .read,
        "PUT /users/{name}/follow": .upload,
        "DELETE /users/{name}/follow": .upload,
        "PUT /users/{name}/block": .upload,
        "DELETE /users/{name}/block": .upload,
        "GET /feed/following": .read,
        "GET /feed/for-you": .read,
        "POST /events": .read,
        "GET /reports": .admin,
        "GET /comments": .read,
        "POST /comments": .upload,
        "GET /comments/live": .read,
        "GET /v1/videos/search": .read,
        "GET /v1/videos/popular": .read,
        "GET /media/videos/{id}": .media,
        "GET /media/videos/{id}/thumbnail": .media,
        "GET /media/posts/{id}/{index}": .media,
        "GET /media/roll/{id}": .media,
        "GET /media/roll/{id}/thumb.jpg": .media,
        "GET /media/roll/{id}/storyboard.jpg": .media,
        "GET /media/roll/{id}/storyboard.vtt": .media,
        "GET /roll": .read,
        "GET /roll/{id}": .read,
        "DELETE /roll/{id}": .upload,
        "GET /roll/{id}/hls/master.m3u8": .media,
        "GET /roll/{id}/hls/manifest.mpd": .media,
        "GET /roll/{id}/hls/{rung}/{file}": .media,
        "PUT /videos/{id}/like": .upload,
        "DELETE /videos/{id}/like": .upload,
        "PUT /videos/{id}/bookmark": .upload,
        "DELETE /videos/{id}/bookmark": .upload,
        "GET /likes": .read,
        "GET /bookmarks": .read,
        "OPTIONS /uploads": .open,
        "POST /uploads": .upload,
        "OPTIONS /uploads/{id}": .open,
        "HEAD /uploads/{id}": .upload,
        "PATCH /uploads/{id}": .upload,
        "DELETE /uploads/{id}": .upload,
        "GET /uploads/{id}": .upload,
        "GET /jobs": .read,
        "POST /jobs/stack": .upload,
        "GET /jobs/{id}": .read,
        "DELETE /jobs/{id}": .upload,
        "GET /jobs/{id}/events": .read,
        "POST /webhooks": .admin,
        "GET /webhooks": .admin,
        "DELETE /webhooks/{id}": .admin,
        "GET /webhooks/deliveries": .admin,
        "POST /live": .upload,
        "GET /live": .read,
        "GET /live/{id}": .read,
        "DELETE /live/{id}": .upload,
        "POST /live/{id}/key": .upload,
        "POST /live/{id}/comments": .upload,
        "GET /live/{id}/comments": .read,
        "POST /live/{id}/hearts": .upload,
        "GET /live/{id}/events": .read,
        "GET /live/{id}/index.m3u8": .media,
        "GET /live/{id}/{file}": .media,
        "GET /": .open,
        "GET /console/console.css": .open,
        "GET /console/console.js": .open,
        "GET /openapi.yaml": .open,
        "GET /openapi.json": .open,
        "GET /healthz": .open,
        "GET /metrics": .admin,
    ]

    /// The row of a route (its pattern as registered) and method.
    static func of(method: String, route: String) -> AccessRule {
        if let rule = table["\(method) \(route)"] { return rule }
        if method == "HEAD", let rule = table["GET \(route)"] { return rule }
        return .admin
    }
}
