import FeedCore
import FeedRecs
import FeedSocial
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// `POST /events` and `GET /feed/for-you` in process, on both catalogs: a batch stored whole or
/// refused whole with the event and field named, a retry counted once, plays in `views`, and
/// pages whose viewer is the token's user or the device a client with no user names.
@Suite("For You routes: events and the ranked feed")
struct ForYouRoutesTests {
    typealias Session = SocialRoutesTests.Session

    @Test("a batch is stored once, views count its plays; a wrong event is a 400 naming it; too many is 413; the caller decides whose",
          arguments: OwnershipTests.Catalog.allCases)
    func events(catalog: OwnershipTests.Catalog) async throws {
        if SocialRoutesTests.skipped(catalog) { return }
        try await SocialRoutesTests.session(catalog) { s in
            let post = try await s.object(.post, "/videos", as: "alice", #"{"recording":1,"description":"one"}"#, status: 201)
            let id = try #require((post["id"] as? NSNumber)?.int64Value)
            let batch = """
                [{"id":"e1","type":"impression","video":\(id)},{"id":"e2","type":"watch","video":\(id),"watched_ms":3000,"duration_ms":4000},
                 {"id":"e3","type":"like","video":\(id),"at":"2026-12-02T10:00:00Z"}]
                """
            let stored = try await s.object(.post, "/events", as: "bob", batch)
            #expect(stored["accepted"] as? Int == 3 && stored["duplicates"] as? Int == 0)
            let again = try await s.object(.post, "/events", as: "bob", batch)
            #expect(again["accepted"] as? Int == 0 && again["duplicates"] as? Int == 3, "a retried batch changes nothing")
            let lines = #"{"id":"n1","type":"watch","video":\#(id),"watched_ms":10}"# + "\n" + #"{"id":"n2","type":"skip","video":\#(id)}"#
            #expect(try await s.object(.post, "/events", as: "bob", lines)["accepted"] as? Int == 2, "NDJSON")
            #expect(try await s.object(.get, "/videos/\(id)", as: "carol")["views"] as? Int == 2, "two plays")

            try await s.refused(.post, "/events", as: "bob", #"[{"id":"ok","type":"like","video":\#(id)},{"id":"bad","type":"watch","video":\#(id)}]"#,
                                status: 400, saying: #"event 1 (id "bad"): watched_ms is missing"#)
            try await s.refused(.post, "/events", as: "bob", "[]", status: 400, saying: "no event in it")
            let many = "[" + (0...1000).map { #"{"id":"m\#($0)","type":"like","video":1}"# }.joined(separator: ",") + "]"
            try await s.refused(.post, "/events", as: "bob", many, status: 413, saying: "1001 events in one batch")
            #expect(try await s.object(.get, "/videos/\(id)", as: "carol")["views"] as? Int == 2, "a refused batch counted nothing")
            // Whose: the admin token names no user, so its events name their device; a read token is its sub's.
            try await s.refused(.post, "/events", as: "admin", #"[{"id":"a","type":"like","video":1}]"#, status: 400, saying: "needs a viewer")
            try await s.refused(.post, "/events", as: "admin", #"[{"id":"a","type":"like","video":1,"device":"d1"},{"id":"b","type":"like","video":1,"device":"d2"}]"#,
                                status: 400, saying: #"event 1 (id "b"): device differs"#)
            #expect(try await s.object(.post, "/events", as: "admin", #"[{"id":"a","type":"watch","video":\#(id),"watched_ms":5,"device":"d1"}]"#)["accepted"] as? Int == 1)
            #expect(try await s.object(.post, "/events", as: "reader", #"[{"id":"a","type":"watch","video":\#(id),"watched_ms":5}]"#)["accepted"] as? Int == 1)
            #expect(try await s.object(.get, "/videos/\(id)", as: "carol")["views"] as? Int == 4)
            #expect(try await s.call(.post, "/events", as: "nobody", batch).status == 401)
            let metrics = try await s.client.execute(uri: "/metrics", method: .get, headers: s.headers["admin"] ?? [:])
            let text = String(buffer: metrics.body)
            #expect(text.contains("feed_events_accepted_total 7\n") && text.contains("feed_events_duplicate_total 3\n")
                    && text.contains("feed_plays_total 4\n"), "\(text)")
        }
    }

    @Test("For You pages a user's videos with reasons and a cursor; a caller with no user names a device and sees public posts",
          arguments: OwnershipTests.Catalog.allCases)
    func pages(catalog: OwnershipTests.Catalog) async throws {
        if SocialRoutesTests.skipped(catalog) { return }
        try await SocialRoutesTests.session(catalog) { s in
            let open = try await s.object(.post, "/videos", as: "alice", #"{"recording":1,"description":"open #a"}"#, status: 201)
            let closed = try await s.object(.post, "/videos", as: "bob", #"{"recording":2,"description":"mine","visibility":"private"}"#, status: 201)
            let openID = try #require((open["id"] as? NSNumber)?.int64Value), closedID = try #require((closed["id"] as? NSNumber)?.int64Value)

            let first = try await s.object(.get, "/feed/for-you?limit=1", as: "bob")
            let videos = first["videos"] as? [[String: Any]] ?? []
            #expect(videos.count == 1)
            let reasons = ["followed", "similar_to", "topic", "trending", "new", "explore"]
            #expect(videos.allSatisfy { reasons.contains($0["reason"] as? String ?? "") && $0.keys.contains("reason_video") && $0["author"] != nil })
            #expect(first["model_version"] is NSNull, "no model trained yet")
            let cursor = try #require(first["next_cursor"] as? String)
            let second = try await s.ids("/feed/for-you?limit=5&cursor=\(cursor)", as: "bob")
            let firstID = (videos.first?["id"] as? NSNumber)?.int64Value
            #expect(Set(second + [firstID ?? 0]) == [openID, closedID], "bob sees his own private post, each once")

            try await s.refused(.get, "/feed/for-you", as: "admin", status: 400, saying: "needs a viewer")
            #expect(try await s.ids("/feed/for-you?device=tv-1", as: "admin") == [openID], "a device sees public posts only")
            #expect(try await s.ids("/feed/for-you?device=guest-1", as: "reader") == [openID], "a shared read token's guest names a device")
            try await s.refused(.get, "/feed/for-you?cursor=p12", as: "bob", status: 400, saying: "is not one this server wrote")
            try await s.refused(.get, "/feed/for-you?limit=500", as: "bob", status: 400, saying: "limit must be 1…100")
            #expect(try await s.call(.get, "/feed/for-you", as: "nobody").status == 401)
        }
    }
}
