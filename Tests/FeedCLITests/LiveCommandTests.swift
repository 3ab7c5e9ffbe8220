import FeedTestSupport
import Foundation
import Testing

/// `feed live` on the roll's catalog: create, show, list, key, end, and their refusals.
@Suite("feed live")
struct LiveCommandTests {
    @Test("create prints the stream with its key; show and list agree; key replaces it; end is for good; refusals exit 64 and 65")
    func lifecycle() async throws {
        let home = try ScratchFolder()
        let env = ["FEED_HOME": home.path("home")]
        func feed(_ words: String...) async throws -> FeedRun { try await FeedProcess.run(words, environment: env) }

        let created = try await feed("live", "create", "  Friday launch ", "--owner", "ana", "--json")
        #expect(created.status == 0, "\(created.stderr)")
        let stream = try #require(try created.json() as? [String: Any])
        let key = try #require(stream["stream_key"] as? String)
        #expect(stream["id"] as? Int == 1 && stream["state"] as? String == "idle" && stream["title"] as? String == "Friday launch")
        #expect(stream["owner"] as? String == "ana" && key.hasPrefix("sk_") && key.count == 43)

        let shown = try await feed("live", "show", "1")
        #expect(shown.status == 0 && shown.stdout.contains("stream_key") && shown.stdout.contains(key), "\(shown.stdout)")
        _ = try await feed("live", "create", "second")
        let listed = try await feed("live", "list", "--json")
        let rows = try #require(try listed.json() as? [[String: Any]])
        #expect(rows.map { $0["id"] as? Int } == [2, 1] && rows.allSatisfy { $0["stream_key"] == nil }, "list shows no key")
        let anas = try #require(try await feed("live", "list", "--owner", "ana", "--json").json() as? [[String: Any]])
        #expect(anas.map { $0["id"] as? Int } == [1])

        let rekeyed = try #require(try await feed("live", "key", "1", "--json").json() as? [String: Any])
        #expect(rekeyed["stream_key"] as? String != key && (rekeyed["stream_key"] as? String)?.hasPrefix("sk_") == true)
        let ended = try #require(try await feed("live", "end", "1", "--json").json() as? [String: Any])
        #expect(ended["state"] as? String == "ended" && ended["ended_at"] is String)
        #expect(try await feed("live", "end", "1").status == 0, "ending twice is no error")
        let again = try await feed("live", "key", "1")
        #expect(again.status == 65 && again.stderr == "feed: live stream 1: the stream has ended\n", "\(again.stderr)")
        let table = try await feed("live", "list", "--state", "ended")
        #expect(table.status == 0 && table.stdout.contains("Friday launch") && !table.stdout.contains("second"), "\(table.stdout)")

        let unknown = try await feed("live", "show", "9")
        #expect(unknown.status == 65 && unknown.stderr == "feed: live stream 9: no such stream\n", "\(unknown.stderr)")
        let untitled = try await feed("live", "create", " ")
        #expect(untitled.status == 64 && untitled.stderr == "feed: title: must not be empty\n", "\(untitled.stderr)")
    }

    @Test("end queues the live.ended webhook for each endpoint the catalog keeps, once: ending again queues nothing")
    func endWebhook() async throws {
        // Given an endpoint kept in the catalog by a server started with --webhook,
        let home = try RollHome()
        let secret = home.folder.path("hook.key")
        try Data("a-webhook-secret-of-32-bytes-ok!\n".utf8).write(to: URL(fileURLWithPath: secret))
        let serve = try await ServeProcess(["--quiet", "--webhook", "http://127.0.0.1:9/hooks", "--webhook-secret-file", secret], home: home)
        #expect(await serve.stop() == 0)
        // when a stream is created and ended twice on the catalog,
        #expect(try await home.run(["live", "create", "launch"]).status == 0)
        #expect(try await home.run(["live", "end", "1"]).status == 0)
        #expect(try await home.run(["live", "end", "1"]).status == 0)
        // then one live.ended delivery waits in the queue, for that endpoint.
        let deliveries = try #require(try await home.run(["webhooks", "--json"]).json() as? [[String: Any]])
        #expect(deliveries.compactMap { $0["type"] as? String } == ["live.ended"], "\(deliveries)")
        #expect(deliveries.first?["url"] as? String == "http://127.0.0.1:9/hooks" && deliveries.first?["state"] as? String == "queued")
    }
}
