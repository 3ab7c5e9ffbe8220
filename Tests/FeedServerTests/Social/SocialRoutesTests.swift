import FeedCore
import FeedSocial
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// The social routes in process, on both catalogs: alice publishes, bob follows, likes and
/// comments, carol is nobody to them, and the admin moderates; every refusal is the status and
/// the problem its route documents, and changes nothing.
@Suite("Social routes: posts, follows, comments, blocks, reports")
struct SocialRoutesTests {
    /// A client of the keyed server with recordings 1 (alice's), 2 (bob's) and 3 (the server's).
    struct Session {
        let client: any TestClientProtocol
        let headers: [String: HTTPFields]

        /// Sends a request as `who` (a user, "admin", or "nobody" for no token).
        func call(_ method: HTTPRequest.Method, _ path: String, as who: String, _ body: String? = nil) async throws -> (status: Int, json: Any?) {
            var fields = headers[who] ?? [:]
            if body != nil { fields[.contentType] = "application/json" }
            let response = try await client.execute(uri: path, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
            let data = Data(buffer: response.body)
            return (Int(response.status.code), data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data))
        }

        /// The JSON object of a call that must answer `status`.
        func object(_ method: HTTPRequest.Method, _ path: String, as who: String, _ body: String? = nil, status: Int = 200,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
            let (code, json) = try await call(method, path, as: who, body)
            #expect(code == status, "\(method) \(path) as \(who): \(json ?? "")", sourceLocation: sourceLocation)
            return json as? [String: Any] ?? [:]
        }

        /// The ids of a listing's `key` array.
        func ids(_ path: String, as who: String, key: String = "videos") async throws -> [Int64] {
            let object = try await object(.get, path, as: who)
            return (object[key] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
        }

        /// A refusal: its status and the words its problem's detail holds.
        func refused(_ method: HTTPRequest.Method, _ path: String, as who: String, _ body: String? = nil, status: Int, saying words: String,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let (code, json) = try await call(method, path, as: who, body)
            let detail = (json as? [String: Any])?["detail"] as? String ?? ""
            #expect(code == status && detail.contains(words), "\(method) \(path) as \(who): \(code) \(detail)", sourceLocation: sourceLocation)
        }
    }

    static func session(_ catalog: OwnershipTests.Catalog, _ body: @Sendable (Session) async throws -> Void) async throws {
        let (f, _, _) = try await OwnershipTests.fixture(catalog)
        var headers: [String: HTTPFields] = ["admin": AccessFixture.bearer(AccessFixture.adminToken), "nobody": [:]]
        for user in ["alice", "bob", "carol"] { headers[user] = AccessFixture.bearer(try await f.token(user, [.read, .upload])) }
        headers["reader"] = AccessFixture.bearer(try await f.token("reader", [.read]))
        let fixed = headers
        try await f.server.test { client in try await body(Session(client: client, headers: fixed)) }
    }

    static func skipped(_ catalog: OwnershipTests.Catalog) -> Bool {
        if catalog == .postgres && TestPostgres.url == nil {
            #expect(!TestPostgres.isRequired, "FEED_REQUIRE_POSTGRES is set but no cluster runs")
            return true
        }
        return false
    }

    @Test("alice publishes; bob sees it first in /videos, follows her, likes and comments; the counts follow", arguments: OwnershipTests.Catalog.allCases)
    func journey(catalog: OwnershipTests.Catalog) async throws {
        if Self.skipped(catalog) { return }
        try await Self.session(catalog) { s in
            let post = try await s.object(.post, "/videos", as: "alice", #"{"recording":1,"description":"Tacos #food with @bob","visibility":"public"}"#, status: 201)
            let id = try #require((post["id"] as? NSNumber)?.int64Value)
            #expect(id >= SocialPost.firstID)
            #expect(post["author"] as? String == "alice" && post["username"] as? String == "alice" && post["hashtags"] as? [String] == ["food"])
            #expect((post["video"] as? String)?.contains("/media/roll/1") == true && post["mentions"] as? [String] == ["bob"])

            let listed = try await s.ids("/videos", as: "bob")
            #expect(listed.first == id && listed.count == 6, "the post, then the demo feed's five videos")
            #expect(try await s.object(.get, "/videos/\(id)", as: "bob")["likes"] as? Int == 0)
            #expect(try await s.call(.put, "/users/alice/follow", as: "bob").status == 204)
            #expect(try await s.call(.put, "/users/alice/follow", as: "bob").status == 204, "following twice is fine")
            #expect(try await s.ids("/feed/following", as: "bob") == [id])
            #expect(try await s.object(.get, "/videos/\(id)", as: "bob")["author_followed"] as? Bool == true)
            #expect(try await s.object(.get, "/videos/\(id)", as: "carol")["author_followed"] as? Bool == false)
            let feedsApp = try await s.call(.get, "/posts", as: "carol")
            let albums = try #require(feedsApp.json as? [[String: Any]])
            #expect(albums.count == 1 && albums.first?["title"] as? String == "alice" && (albums.first?["media"] as? [[String: Any]])?.count == 1,
                    "FeedsApp's shape lists the post: \(albums)")
            #expect(try await s.ids("/feed/following", as: "carol").isEmpty)
            let like = try await s.object(.put, "/videos/\(id)/like", as: "bob")
            #expect(like["likes"] as? Int == 1 && like["liked"] as? Bool == true)
            _ = try await s.object(.put, "/videos/\(id)/like", as: "bob")
            let comment = try await s.object(.post, "/videos/\(id)/comments", as: "bob", #"{"comment":"Looks great","username":"mallory"}"#, status: 201)
            #expect(comment["username"] as? String == "bob", "a keyed server's commenter is the caller, not the body's name")
            let top = try #require((comment["id"] as? NSNumber)?.int64Value)
            _ = try await s.object(.post, "/videos/\(id)/comments", as: "alice", #"{"comment":"Thanks!","parent":\#(top)}"#, status: 201)
            #expect(try await s.ids("/comments/\(top)/replies", as: "carol", key: "comments").count == 1)
            let comments = try await s.object(.get, "/videos/\(id)/comments", as: "carol")
            #expect((comments["comments"] as? [[String: Any]])?.first?["replies"] as? Int == 1)
            let shared = try await s.object(.post, "/videos/\(id)/share", as: "carol")
            #expect(shared["shares"] as? Int == 1 && (shared["url"] as? String)?.hasSuffix("/videos/\(id)") == true)
            let seen = try await s.object(.get, "/videos/\(id)", as: "carol")
            #expect(seen["likes"] as? Int == 1 && seen["comments"] as? Int == 2 && seen["shares"] as? Int == 1 && seen["liked"] as? Bool == false)
            let alice = try await s.object(.get, "/users/alice", as: "bob")
            #expect(alice["followers"] as? Int == 1 && alice["videos"] as? Int == 1 && alice["likes"] as? Int == 1 && alice["followed"] as? Bool == true)
            #expect(try await s.object(.get, "/users/bob", as: "alice")["following"] as? Int == 1)
            let followers = try await s.object(.get, "/users/alice/followers", as: "carol")
            #expect((followers["users"] as? [[String: Any]])?.map { $0["name"] as? String } == ["bob"])
            let edited = try await s.object(.patch, "/users/me", as: "alice", #"{"display_name":"Alice A.","bio":"tacos","avatar_recording":1}"#)
            #expect(edited["display_name"] as? String == "Alice A." && (edited["avatar_url"] as? String)?.contains("/media/roll/1/thumb.jpg") == true)
            #expect(try await s.call(.delete, "/videos/\(id)", as: "alice").status == 204)
            #expect(try await s.call(.get, "/videos/\(id)", as: "bob").status == 404)
            #expect(try await s.object(.get, "/roll/1", as: "alice")["id"] as? Int == 1, "the recording stays in its owner's roll")
            #expect(try await s.object(.get, "/users/alice", as: "bob")["videos"] as? Int == 0)
        }
    }

    @Test("bad input: each refusal its status and words, nothing half-written", arguments: OwnershipTests.Catalog.allCases)
    func refusals(catalog: OwnershipTests.Catalog) async throws {
        if Self.skipped(catalog) { return }
        try await Self.session(catalog) { s in
            let long = String(repeating: "a", count: 2201)
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":1,"description":"\#(long)"}"#, status: 422, saying: "description is 2201 characters")
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":1,"description":"a\u0007b"}"#, status: 422, saying: "control character U+0007")
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":99}"#, status: 404, saying: "no recording 99")
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":2}"#, status: 404, saying: "no recording 2")
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":1,"visibility":"friends"}"#, status: 400, saying: "POST /videos: the body must be")
            try await s.refused(.post, "/videos", as: "reader", #"{"recording":1}"#, status: 403, saying: "needs a token with scope upload")
            try await s.refused(.post, "/videos", as: "admin", #"{"recording":3}"#, status: 422, saying: "recording 3 has no owner")
            #expect(try await s.ids("/videos?limit=100", as: "admin").count == 5, "no post row from a refused publish")
            let post = try await s.object(.post, "/videos", as: "alice", #"{"recording":1}"#, status: 201)
            let id = try #require((post["id"] as? NSNumber)?.int64Value)
            try await s.refused(.post, "/videos", as: "alice", #"{"recording":1}"#, status: 409, saying: "published already, as post \(id)")
            try await s.refused(.patch, "/videos/\(id)", as: "bob", #"{"visibility":"private"}"#, status: 403, saying: "not yours")
            try await s.refused(.put, "/users/alice/follow", as: "alice", status: 422, saying: "cannot follow or block themselves")
            try await s.refused(.put, "/users/nobody/follow", as: "bob", status: 404, saying: "no user nobody")
            let other = try await s.object(.post, "/videos", as: "bob", #"{"recording":2}"#, status: 201)
            let otherID = try #require((other["id"] as? NSNumber)?.int64Value)
            let top = try await s.object(.post, "/videos/\(id)/comments", as: "bob", #"{"comment":"hi"}"#, status: 201)
            let topID = try #require((top["id"] as? NSNumber)?.int64Value)
            let reply = try await s.object(.post, "/videos/\(id)/comments", as: "carol", #"{"comment":"hey","parent":\#(topID)}"#, status: 201)
            let replyID = try #require((reply["id"] as? NSNumber)?.int64Value)
            try await s.refused(.post, "/videos/\(id)/comments", as: "bob", #"{"comment":"deeper","parent":\#(replyID)}"#, status: 422, saying: "replies take no replies")
            try await s.refused(.post, "/videos/\(otherID)/comments", as: "bob", #"{"comment":"x","parent":\#(topID)}"#, status: 422, saying: "is not under post")
            try await s.refused(.post, "/videos/\(id)/comments", as: "bob", #"{"comment":""}"#, status: 422, saying: "comment must not be empty")
            try await s.refused(.delete, "/comments/\(topID)", as: "carol", status: 403, saying: "not yours to delete")
            #expect(try await s.object(.get, "/videos/\(id)", as: "bob")["comments"] as? Int == 2, "refused comments counted nothing")
            #expect(try await s.call(.post, "/videos/\(otherID)/hide", as: "alice").status == 403, "hiding is the admin's")
            #expect(try await s.call(.post, "/videos/\(otherID)/hide", as: "admin").status == 204)
            try await s.refused(.post, "/videos/\(otherID)/comments", as: "bob", #"{"comment":"mine"}"#, status: 409, saying: "a moderator hid it")
            try await s.refused(.post, "/videos/\(otherID)/comments", as: "carol", #"{"comment":"x"}"#, status: 404, saying: "no post \(otherID)")
            _ = try await s.object(.patch, "/videos/\(id)", as: "alice", #"{"visibility":"private"}"#)
            try await s.refused(.post, "/videos/\(id)/comments", as: "alice", #"{"comment":"note"}"#, status: 409, saying: "it is private")
            try await s.refused(.post, "/videos/\(id)/comments", as: "bob", #"{"comment":"x"}"#, status: 404, saying: "no post")
            try await s.refused(.get, "/videos?cursor=zz", as: "bob", status: 400, saying: "cursor zz is not one this server gave")
            try await s.refused(.get, "/users/alice/videos?limit=101", as: "bob", status: 400, saying: "limit must be 1…100")
        }
    }

    @Test("visibility, blocks and hiding hold in every listing: /videos, /videos/{id}, /users/{name}/videos, /feed/following", arguments: OwnershipTests.Catalog.allCases)
    func visibility(catalog: OwnershipTests.Catalog) async throws {
        if Self.skipped(catalog) { return }
        try await Self.session(catalog) { s in
            #expect(try await s.call(.put, "/users/alice/follow", as: "bob").status == 404, "alice is nobody before her first write")
            let followers = try await s.object(.post, "/videos", as: "alice", #"{"recording":1,"visibility":"followers"}"#, status: 201)
            let id = try #require((followers["id"] as? NSNumber)?.int64Value)
            #expect(try await s.call(.put, "/users/alice/follow", as: "bob").status == 204)
            for path in ["/videos?limit=1", "/users/alice/videos", "/feed/following"] {
                #expect(try await s.ids(path, as: "bob") == [id], "bob follows alice: \(path)")
                #expect(try await s.ids(path, as: "carol").first != id, "carol does not: \(path)")
            }
            #expect(try await s.call(.get, "/videos/\(id)", as: "carol").status == 404)
            #expect(try await s.call(.get, "/videos/\(id)", as: "nobody").status == 401)
            #expect(try await s.call(.put, "/users/bob/block", as: "alice").status == 204)
            #expect(try await s.object(.get, "/users/alice", as: "carol")["followers"] as? Int == 0, "the block ended bob's follow")
            try await s.refused(.put, "/users/alice/follow", as: "bob", status: 403, saying: "one of you blocked the other")
            #expect(try await s.call(.get, "/videos/\(id)", as: "bob").status == 404)
            #expect(try await s.ids("/users/alice/videos", as: "bob").isEmpty)
            #expect(try await s.call(.delete, "/users/bob/block", as: "alice").status == 204)
            _ = try await s.object(.patch, "/videos/\(id)", as: "alice", #"{"visibility":"public"}"#)
            #expect(try await s.call(.post, "/videos/\(id)/hide", as: "admin").status == 204)
            #expect(try await s.ids("/videos?limit=1", as: "carol").first != id)
            let own = try await s.object(.get, "/users/alice/videos", as: "alice")
            #expect((own["videos"] as? [[String: Any]])?.first?["hidden"] as? Bool == true, "the author sees it, marked hidden")
            let report = try await s.object(.post, "/videos/\(id)/report", as: "alice", #"{"reason":"spam","note":"testing"}"#, status: 201)
            #expect(report["target"] as? String == "video" && report["reason"] as? String == "spam")
            try await s.refused(.post, "/videos/\(id)/report", as: "alice", #"{"reason":"boring"}"#, status: 400, saying: "spam|nudity")
            #expect(try await s.ids("/reports", as: "admin", key: "reports").count == 1)
            #expect(try await s.call(.get, "/reports", as: "alice").status == 403)
        }
    }

    @Test("GET /videos pages posts, then the feed's videos, by cursor; a post added meanwhile leaves the next page as it was", arguments: OwnershipTests.Catalog.allCases)
    func cursorPaging(catalog: OwnershipTests.Catalog) async throws {
        if Self.skipped(catalog) { return }
        try await Self.session(catalog) { s in
            var posts: [Int64] = []
            for recording in [1, 2] {
                let owner = recording == 1 ? "alice" : "bob"
                let post = try await s.object(.post, "/videos", as: owner, #"{"recording":\#(recording)}"#, status: 201)
                posts.append(try #require((post["id"] as? NSNumber)?.int64Value))
            }
            var seen: [Int64] = [], cursor: String? = nil, pages = 0
            repeat {
                let page = try await s.object(.get, "/videos?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""), as: "carol")
                seen += (page["videos"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
                cursor = page["next_cursor"] as? String
                if pages == 0 {
                    // Between the pages, another post: newer than the cursor, so not on the next page.
                    _ = try await s.object(.post, "/videos", as: "admin", #"{"recording":3,"author":"dave"}"#, status: 201)
                }
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == posts.reversed() + [1235, 1450, 1783, 1739, 1515])
            #expect(pages == 3)
            #expect(try await s.ids("/videos?offset=3&limit=2", as: "carol") == [1235, 1450], "three posts now, then the feed")
            #expect(try await s.ids("/videos?offset=2&limit=2", as: "carol") == [posts[0], 1235], "the last post, then the feed")
            #expect(try await s.ids("/videos?sort=likes&limit=1&offset=1", as: "carol").count == 1)
        }
    }

    @Test("Pexels' search and popular list the posts the caller may see, in Pexels' shape, before (search) or among (popular) the feed's", arguments: OwnershipTests.Catalog.allCases)
    func pexels(catalog: OwnershipTests.Catalog) async throws {
        if Self.skipped(catalog) { return }
        try await Self.session(catalog) { s in
            let open = try await s.object(.post, "/videos", as: "alice", #"{"recording":1,"description":"Street tacos at noon"}"#, status: 201)
            let openID = try #require((open["id"] as? NSNumber)?.int64Value)
            let hidden = try await s.object(.post, "/videos", as: "bob", #"{"recording":2,"description":"Secret tacos","visibility":"followers"}"#, status: 201)
            let hiddenID = try #require((hidden["id"] as? NSNumber)?.int64Value)
            let search = try await s.object(.get, "/v1/videos/search?query=TACOS", as: "carol")
            let ids = (search["videos"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
            #expect(ids.first == openID && !ids.contains(hiddenID), "\(ids)")
            #expect(ids.dropFirst().allSatisfy { $0 < SocialPost.firstID }, "then the feed's own: \(ids)")
            #expect(search["total_results"] as? Int == ids.count)
            let first = try #require((search["videos"] as? [[String: Any]])?.first)
            #expect((first["user"] as? [String: Any])?["name"] as? String == "alice")
            #expect(((first["video_files"] as? [[String: Any]])?.first?["link"] as? String)?.contains("/media/roll/1") == true)
            #expect(try await s.call(.put, "/users/bob/follow", as: "carol").status == 204)
            let followed = try await s.object(.get, "/v1/videos/search?query=tacos&per_page=1", as: "carol")
            #expect((followed["videos"] as? [[String: Any]])?.first?["id"] as? Int64 == hiddenID, "newest first, now that carol follows bob")
            #expect(followed["next_page"] is String)
            for _ in 0..<2 { _ = try await s.object(.put, "/videos/\(openID)/like", as: "carol") }
            let popular = try await s.object(.get, "/v1/videos/popular?per_page=80", as: "carol")
            let order = (popular["videos"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
            #expect(order.contains(openID) && order.contains(hiddenID) && order.count == 7, "\(order)")
            #expect(order.firstIndex(of: hiddenID)! > order.firstIndex(of: openID)!, "one like beats none")
        }
    }
}
