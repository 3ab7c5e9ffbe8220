import Foundation
import FeedCore
import FeedSQLite
import FeedTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// HTTP as RFC 9110 says, for every route: HEAD wherever GET, 405 with Allow, problem details.
@Suite("HTTP semantics")
struct HTTPSemanticsTests {
    @Test("HEAD answers wherever GET does: the GET's status and headers, Content-Length included (errors too), no body",
          arguments: ["/videos", "/videos/1450", "/posts", "/comments", "/v1/videos/popular", "/v1/videos/search?query=food", "/roll",
                      "/likes", "/bookmarks", "/videos/999999", "/nope", "/uploads", "/roll/1/hls"])
    func head(path: String) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let get = try await client.execute(uri: path, method: .get)
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == get.status, "\(path): HEAD \(head.status), GET \(get.status)")
            #expect(head.body.readableBytes == 0, "\(path): HEAD has a body")
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(path): \(head.headers)")
        }
    }

    @Test("HEAD of an event stream: the GET's 200 and Content-Type, no Content-Length (its GET has none), no body; its errors as the GET's")
    func headOfEventStreams() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let live = try await client.execute(uri: "/comments/live", method: .head)
            #expect(live.status == .ok && live.headers[.contentType] == "text/event-stream" && live.body.readableBytes == 0)
            #expect(live.headers[.contentLength] == nil, "\(live.headers)")
            for path in ["/comments/live?interval=0", "/jobs/999/events", "/jobs/x/events"] {
                let get = try await client.execute(uri: path, method: .get)
                let head = try await client.execute(uri: path, method: .head)
                #expect(get.status.code >= 400 && head.status == get.status, "\(path): HEAD \(head.status), GET \(get.status)")
                #expect(head.headers[.contentLength] == String(get.body.readableBytes) && head.body.readableBytes == 0, "\(path)")
            }
        }
    }

    @Test("ids that links must percent-encode (café, a+b, q?x) are found through those links (media, the video, its like); %31 is 1; a bad escape is 400")
    func encodedIDs() async throws {
        let folder = try ScratchFolder()
        let clip = try folder.write("clip.mp4", "bytes of a clip")
        let videos = ["café", "a+b", "q?x", "1"].map { id in
            #"{"id":"\#(id)","username":"u","description":"d","video":"\#(clip)"}"#
        }
        let feed = try FeedLoader.load(bytes: Array(#"{"videos":[\#(videos.joined(separator: ","))]}"#.utf8), source: "encoded.json")
        let f = try ServerFixture(folder: folder, roll: try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber()), feed: feed)
        try await f.test { client in
            let list = try await client.execute(uri: "/videos", method: .get)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any])
            let listed = try #require(object["videos"] as? [[String: Any]])
            #expect(listed.count == 4)
            for video in listed {
                let id = video["id"].map { "\($0)" } ?? "none"
                let link = try #require((video["video"] as? String).flatMap { URLComponents(string: $0) }?.percentEncodedPath)
                #expect(link.hasPrefix("/media/videos/"), "\(id): \(link)")
                let media = try await client.execute(uri: link, method: .get)
                #expect(media.status == .ok && media.headers[.contentLength] == "15", "\(id) at \(link): \(media.status)")
                let encoded = String(link.dropFirst("/media".count))
                let one = try await client.execute(uri: encoded, method: .get)
                let shown = try JSONSerialization.jsonObject(with: Data(buffer: one.body)) as? [String: Any]
                #expect(one.status == .ok && shown?["id"].map { "\($0)" } == id, "\(id) at \(encoded): \(one.status) \(one.text)")
                let liked = try await client.execute(uri: encoded + "/like", method: .put)
                #expect(liked.status == .ok && liked.text.contains(#""liked":true"#), "\(id): like \(liked.status) \(liked.text)")
            }
            #expect(try await client.execute(uri: "/videos/%31", method: .get).status == .ok)
            let bad = try await client.execute(uri: "/videos/%zz", method: .get)
            #expect(bad.status == .badRequest && bad.error?.message.contains("%zz") == true, "\(bad.status) \(bad.text)")
        }
    }

    @Test("a Pexels video with no thumbnail still has every required key: image null, no pictures")
    func pexelsWithoutImage() async throws {
        let folder = try ScratchFolder()
        let feed = try FeedLoader.load(bytes: Array(#"{"videos":[{"id":7,"username":"u","description":"tacos","video":"https://example.com/7.mp4"}]}"#.utf8),
                                       source: "bare.json")
        let f = try ServerFixture(folder: folder, roll: try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber()), feed: feed)
        try await f.test { client in
            for path in ["/v1/videos/popular", "/v1/videos/search?query=tacos"] {
                let page = try await client.execute(uri: path, method: .get)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: page.body)) as? [String: Any])
                let video = try #require((object["videos"] as? [[String: Any]])?.first, "\(path): \(page.text)")
                #expect(video.keys.contains("image") && video["image"] is NSNull, "\(path): \(page.text)")
                #expect((video["video_pictures"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test("a known path asked with another method is 405 with Allow; an unknown path stays 404", arguments: [
        ("/videos", HTTPRequest.Method.put, "GET, HEAD, POST"),
        ("/comments", .delete, "GET, HEAD, POST"),
        ("/roll/3", .put, "GET, HEAD, DELETE"),
        ("/videos/1450/like", .post, "PUT, DELETE"),
        ("/jobs/stack", .get, "POST"),
        ("/uploads/abc", .post, "GET, HEAD, PATCH, DELETE, OPTIONS"),
    ])
    func methodNotAllowed(path: String, method: HTTPRequest.Method, allow: String) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let reply = try await client.execute(uri: path, method: method)
            #expect(reply.status == .methodNotAllowed, "\(method) \(path): \(reply.status) \(reply.text)")
            #expect(reply.headers[.allow] == allow)
            #expect(reply.error?.kind == "usage", "\(reply.text)")
            let nowhere = try await client.execute(uri: path + "/nowhere/else", method: method)
            #expect(nowhere.status == .notFound && nowhere.headers[.allow] == nil)
        }
    }

    @Test("a comment holding NUL or another control is 422, stored nowhere; tabs and line breaks are text")
    func controlCharacters() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            for text in ["x\\u0000y", "bell\\u0007"] {
                let reply = try await client.execute(uri: "/comments", method: .post, headers: [.contentType: "application/json"],
                                                     body: ByteBuffer(text: #"{"username":"ann","comment":"\#(text)"}"#))
                #expect(reply.status == .unprocessableContent && reply.error?.kind == "invalidData", "\(reply.text)")
            }
            let fine = try await client.execute(uri: "/comments", method: .post, headers: [.contentType: "application/json"],
                                                body: ByteBuffer(text: #"{"username":"ann","comment":"two\tcolumns\nand a line"}"#))
            #expect(fine.status == .created, "\(fine.text)")
        }
        #expect(try await f.roll.catalog.storedComments().map(\.text) == ["two\tcolumns\nand a line"])
    }

    @Test("a Pexels page far past the end, one whose offset overflows, is an empty page, not a crash (found by schemathesis)")
    func hugePage() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            for page in ["2305843009213693953", "9223372036854775807", "37131"] {
                let reply = try await client.execute(uri: "/v1/videos/popular?page=\(page)&per_page=80", method: .get)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: Any]
                #expect(reply.status == .ok && (object?["videos"] as? [Any])?.isEmpty == true, "page \(page): \(reply.text)")
                #expect(object?["next_page"] == nil && object?["prev_page"] is String)
            }
        }
    }
}

@Suite("GET /comments pages")
struct CommentPagesTests {
    @Test("?limit= pages newest first, posted ones then the feed's, each once, with next_cursor null on the last; a post answers its own id")
    func pages() async throws {
        let f = try ServerFixture()
        let feed = FeedLoader.demo().comments, feedCount = feed.count
        let base = Int(Comment.storedIDBase(feed))
        let feedIDs = feed.compactMap { comment -> Int? in if case .int(let n) = comment.id { Int(n) } else { nil } }
        try await f.test { client in
            var posted: [Int] = []
            for n in 1...4 {
                let reply = try await client.execute(uri: "/comments", method: .post, headers: [.contentType: "application/json"],
                                                     body: ByteBuffer(text: #"{"username":"ann","comment":"post \#(n)"}"#))
                let object = try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: Any]
                posted.append(try #require(object?["id"] as? Int))
            }
            #expect(posted == Array((base + 1)...(base + 4)), "a posted comment's id follows the feed's own")

            var seen: [Int] = [], cursor: String? = nil, pages = 0
            repeat {
                let uri = "/comments?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let reply = try await client.execute(uri: uri, method: .get)
                #expect(reply.status == .ok, "\(reply.text)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: Any])
                let ids = (object["comments"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
                #expect(ids.count <= 3)
                seen += ids
                cursor = object["next_cursor"] as? String
                pages += 1
            } while cursor != nil && pages < 100
            #expect(seen == (feedIDs + posted).reversed(), "\(seen)")

            let all = try await client.execute(uri: "/comments", method: .get)
            let list = try JSONSerialization.jsonObject(with: Data(buffer: all.body)) as? [String: Any]
            #expect((list?["comments"] as? [Any])?.count == feedCount + 4 && list?["next_cursor"] == nil)
            for bad in ["x", "s0", "s-1", "f", "s01"] {
                #expect(try await client.execute(uri: "/comments?limit=3&cursor=\(bad)", method: .get).status == .badRequest, "\(bad)")
            }
            #expect(try await client.execute(uri: "/comments?limit=0", method: .get).status == .badRequest)
        }
    }
}
