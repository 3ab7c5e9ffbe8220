import FeedTestSupport
import Foundation
import Testing

/// For You on the command line and through a real server: `feed events import`, `feed recs
/// train`, `feed recs`, `feed recs evaluate`, and `feed serve` training on its schedule.
@Suite("feed recs and feed events")
struct RecsCommandTests {
    /// A roll with `count` posts, alternately alice's (#a) and bob's (#b); their ids.
    static func posts(_ home: RollHome, count: Int) async throws -> [Int64] {
        var ids: [Int64] = []
        for n in 1...count {
            #expect(try await home.run(["roll", "add", try home.clip("clip\(n).mp4", seed: 570 + n, frames: 5)]).status == 0)
            let published = try await home.run(["publish", String(n), "--author", n % 2 == 1 ? "alice" : "bob",
                                                "--description", "clip \(n) #\(n % 2 == 1 ? "a" : "b")", "--json"])
            let post = try #require(try published.json() as? [String: Any], "\(published.stderr)")
            ids.append(try #require((post["id"] as? NSNumber)?.int64Value))
        }
        return ids
    }

    /// NDJSON: each of `users` watches every post of `ids` to the end.
    static func watches(_ users: [String], _ ids: [Int64], prefix: String) -> String {
        var lines: [String] = []
        for user in users {
            for (n, id) in ids.enumerated() {
                lines.append(#"{"id":"\#(prefix)\#(user)-\#(n)","user":"\#(user)","type":"watch","video":\#(id),"watched_ms":900,"duration_ms":1000,"at":"2026-12-01T10:\#(String(format: "%02d", n)):00Z"}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("events import stores a file once; recs train makes version 1; feed recs pages a user with reasons; its refusals exit 64, 65 and 66")
    func commands() async throws {
        let home = try RollHome()
        let ids = try await Self.posts(home, count: 6)
        let odd = ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), even = ids.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let file = try home.folder.write("events.ndjson", Self.watches(["u1", "u2", "u3"], odd, prefix: "o") + Self.watches(["u4", "u5"], even, prefix: "e"))
        let imported = try await home.run(["events", "import", file, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try imported.json() as? [String: Int] == ["accepted": 15, "duplicates": 0, "plays": 15])
        let again = try await home.run(["events", "import", file])
        #expect(again.stdout == "stored 0 events (15 there already), 0 plays counted\n", "\(again.stdout)")

        let trained = try await home.run(["recs", "train", "--json"])
        let model = try #require(try trained.json() as? [String: Any], "\(trained.stderr)")
        #expect(model["version"] as? Int == 1 && model["events"] as? Int == 15 && model["viewers"] as? Int == 5 && model["videos"] as? Int == 6)

        // u6 watched one odd post: the other odd ones come as similar to it.
        let swipe = try home.folder.write("swipe.ndjson", #"{"id":"s","user":"u6","type":"watch","video":\#(odd[0]),"watched_ms":1000,"duration_ms":1000}"# + "\n")
        #expect(try await home.run(["events", "import", swipe]).status == 0)
        let page = try await home.run(["recs", "--user", "u6", "--limit", "3", "--json"])
        let json = try #require(try page.json() as? [String: Any], "\(page.stderr)")
        let videos = json["videos"] as? [[String: Any]] ?? []
        #expect(json["model_version"] as? Int == 1 && videos.count == 3)
        let similar = videos.filter { $0["reason"] as? String == "similar_to" }
        #expect(!similar.isEmpty && similar.allSatisfy { ($0["reason_video"] as? NSNumber)?.int64Value == odd[0] }, "\(videos)")
        #expect(similar.allSatisfy { odd.contains(($0["id"] as? NSNumber)?.int64Value ?? 0) })
        let authors = videos.compactMap { $0["author"] as? String }
        #expect(zip(authors, authors.dropFirst()).allSatisfy { $0 != $1 }, "never one creator twice in a row: \(authors)")
        let cursor = try #require(json["next_cursor"] as? String)
        let next = try await home.run(["recs", "--user", "u6", "--limit", "10", "--cursor", cursor, "--json"])
        let rest = ((try next.json() as? [String: Any])?["videos"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
        #expect(Set(rest).isDisjoint(with: videos.compactMap { ($0["id"] as? NSNumber)?.int64Value }) && rest.count == 3)
        let table = try await home.run(["recs", "show", "--user", "u6"])
        #expect(table.stdout.hasPrefix("#") && table.stdout.contains("REASON") && table.stdout.contains("similar_to \(odd[0])"), "\(table.stdout)")

        let nobody = try await home.run(["recs"])
        #expect(nobody.status == 64 && nobody.stderr.contains("name the viewer: --user NAME or --device ID"), "\(nobody.stderr)")
        let bad = try home.folder.write("bad.ndjson", #"{"id":"a","user":"u1","type":"like","video":1}"# + "\n" + #"{"id":"b","type":"like","video":1}"# + "\n")
        let refused = try await home.run(["events", "import", bad])
        #expect(refused.status == 65 && refused.stderr == "feed: \(bad):2: the event names no user and no device\n", "\(refused.stderr)")
        let wrong = try home.folder.write("wrong.ndjson", #"{"id":"a","user":"u1","type":"watch","video":1}"# + "\n")
        let named = try await home.run(["events", "import", wrong])
        #expect(named.status == 65 && named.stderr == "feed: \(wrong):1: event \"a\": watched_ms is missing (a watch says how long it played)\n", "\(named.stderr)")
        let missing = try await home.run(["events", "import", home.folder.path("none.ndjson")])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(try await home.run(["recs", "--user", "u6", "--cursor", "nope"]).status == 64)
    }

    @Test("recs evaluate: two tastes, the model above popularity on every measure, as text and JSON")
    func evaluate() async throws {
        let folder = try ScratchFolder()
        // Two tastes of 20 videos; each viewer watches 15 of theirs to the end, a minute apart.
        var lines: [String] = []
        for taste in 0..<2 {
            for viewer in 0..<12 {
                // 15 of the 20, a different 15 for each viewer.
                let mine = (0..<20).filter { ($0 + viewer) % 4 != 0 }.map { 100 * (taste + 1) + ($0 * 7 + viewer) % 20 }
                for (n, video) in mine.enumerated() {
                    let at = String(format: "2026-12-01T%02d:%02d:00Z", viewer, n)
                    lines.append(#"{"id":"\#(taste)-\#(viewer)-\#(n)","user":"t\#(taste)v\#(viewer)","type":"watch","video":\#(video),"watched_ms":9000,"duration_ms":10000,"at":"\#(at)"}"#)
                }
            }
        }
        let file = try folder.write("events.ndjson", lines.joined(separator: "\n"))
        let text = try await FeedProcess.run(["recs", "evaluate", "--events", file])
        #expect(text.status == 0 && text.stdout.hasPrefix("viewers 24, videos 40, events trained on 288, held out 72 (20 %)\n"), "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("RECALL@20") && text.stdout.contains("model / popularity"))
        let json = try #require(try await FeedProcess.run(["recs", "evaluate", "--events", file, "--json"]).json() as? [String: Any])
        let model = try #require(json["model"] as? [String: Double]), popular = try #require(json["popularity"] as? [String: Double])
        for key in ["recall", "ndcg", "watch_captured"] {
            #expect((model[key] ?? 0) > (popular[key] ?? 1), "\(key): \(model) against \(popular)")
        }
        let refused = try await FeedProcess.run(["recs", "evaluate", "--events", file, "--holdout", "1.5"])
        #expect(refused.status == 64 && refused.stderr == "feed: holdout must be between 0 and 1, not 1.5\n", "\(refused.stderr)")
    }

    @Test("feed serve trains on its schedule: POST /events through curl, then a model version every server page names")
    func serveTrains() async throws {
        let home = try RollHome()
        let ids = try await Self.posts(home, count: 4)
        let server = try await ServeProcess(["--quiet", "--recs-train-interval", "10"], home: home)
        let batch = "[" + ids.enumerated().map { #"{"id":"w\#($0.offset)","type":"watch","video":\#($0.element),"watched_ms":800,"duration_ms":1000}"# }
            .joined(separator: ",") + "]"
        let sent = try await server.curl("/events", ["-X", "POST", "-H", "X-Feed-User: viv", "-H", "Content-Type: application/json", "-d", batch])
        let accepted = try sent.json()["accepted"] as? Int
        #expect(sent.status == 200 && accepted == 4, "\(sent.text)")
        #expect((try await server.curl("/videos/\(ids[0])").json())["views"] as? Int == 1)
        try await waitUntil(timeout: 60, every: 0.5) {
            (try? await server.curl("/feed/for-you?device=tv").json())?["model_version"] as? Int == 1
        }
        let page = try await server.curl("/feed/for-you?device=tv").json()
        #expect((page["videos"] as? [[String: Any]])?.count == 4)
        await server.stop()
        let jobs = try await home.run(["jobs", "list", "--json"])
        #expect(jobs.stdout.contains(#""kind":"recs.train""#) && jobs.stdout.contains(#""state":"done""#), "\(jobs.stdout)")
    }
}
