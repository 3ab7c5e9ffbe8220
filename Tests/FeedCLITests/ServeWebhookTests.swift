import FeedTestSupport
import Foundation
import Testing

/// `feed serve --webhook`: signed events delivered at least once through failures and a
/// restart, to a real receiver (Scripts/webhook_receiver.py) that checks every signature.
@Suite("feed serve: webhooks")
struct ServeWebhookTests {
    static let receiverScript = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/webhook_receiver.py").path

    /// The receiver's lines: one per request it got, whole (`complete: true`) or, with `cut: true`,
    /// only those whose body ended early (the server stopped mid-request).
    static func received(_ log: String, cut: Bool = false) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { ($0["complete"] as? Bool == false) == cut }
    }

    @Test("the receiver fails 3 deliveries and the server restarts meanwhile: each event still arrives, signed, with one id; the catalog keeps the secret sealed")
    func atLeastOnce() async throws {
        let home = try RollHome()
        let secret = home.folder.path("hook.key"), log = home.folder.path("received.jsonl"), portFile = home.folder.path("port")
        try Data("a-webhook-secret-of-32-bytes-ok!\n".utf8).write(to: URL(fileURLWithPath: secret))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.receiverScript, "--secret-file", secret, "--log", log, "--port-file", portFile, "--fail", "3"]
        let receiver = try ChildProcess(process)  // long-lived: no permit of the limiter
        try #require(try await waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: portFile) })
        let url = "http://127.0.0.1:\(try String(contentsOfFile: portFile, encoding: .utf8))/hooks"
        let keys = home.folder.path("secrets.key")
        try Data("a key for webhook secrets at rest".utf8).write(to: URL(fileURLWithPath: keys))
        let arguments = ["--quiet", "--webhook", url, "--webhook-secret-file", secret, "--webhook-retry", "2", "--secrets-key-file", keys]

        var server = try await ServeProcess(arguments, home: home)
        let clip = try home.clip("clip.mp4", seed: 5, width: 64, height: 48, frames: 10)
        let push = try await FeedProcess.run(["push", clip, "--server", server.base, "--json"])
        #expect(push.status == 0, "\(push.stderr)")
        let id = try #require((try push.json() as? [[String: Any]])?.first?["recording_id"] as? Int)
        #expect(try await server.curl("/roll/\(id)/hls/master.m3u8").status == 200)
        // The first attempt has failed: restart the server with deliveries still due.
        try #require(try await waitUntil(timeout: 60) { Self.received(log).count >= 1 })
        await server.stop()
        let beforeRestart = Self.received(log)
        #expect(!beforeRestart.contains { $0["status"] as? Int == 200 }, "nothing was delivered before the restart: \(beforeRestart)")
        server = try await ServeProcess(arguments, home: home)

        let delivered = try await waitUntil(timeout: 120) {
            let types = Set(Self.received(log).filter { $0["status"] as? Int == 200 }.compactMap { $0["type"] as? String })
            return types.isSuperset(of: ["upload.done", "hls.ready"])
        }
        let lines = Self.received(log)
        #expect(delivered, "\(lines)")
        #expect(lines.count >= 5, "3 refused, then both events: \(lines.count)")
        #expect(lines.allSatisfy { $0["verified"] as? Bool == true }, "every signature checks: \(lines)")
        #expect(lines.allSatisfy { $0["event_id"] as? String == $0["header_id"] as? String })
        // One id per event, whatever the number of attempts.
        var ids: [String: Set<String>] = [:]
        for line in lines { if let type = line["type"] as? String, let id = line["event_id"] as? String { ids[type, default: []].insert(id) } }
        #expect(ids["upload.done"]?.count == 1 && ids["hls.ready"]?.count == 1, "\(ids)")
        // A request the shutdown cut mid-body (at most one per event) still carried its event's id.
        let cut = Self.received(log, cut: true)
        let eventIDs = ids.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(cut.count <= 2 && cut.allSatisfy { eventIDs.contains($0["header_id"] as? String ?? "") }, "\(cut)")

        // The catalog holds the secret sealed, in the endpoint's row and in every delivery's.
        let stored = try FileManager.default.contentsOfDirectory(atPath: home.home.path).filter { $0.hasPrefix("roll.sqlite") }
        #expect(!stored.isEmpty)
        for name in stored {
            let bytes = try Data(contentsOf: home.home.appendingPathComponent(name))
            #expect(bytes.range(of: Data("a-webhook-secret-of-32-bytes-ok!".utf8)) == nil, "\(name) holds the webhook secret in clear")
        }

        let listed = try await home.run(["webhooks", "--json"])
        let deliveries = try #require(try listed.json() as? [[String: Any]], "\(listed.stdout)\(listed.stderr)")
        #expect(deliveries.count == 2 && deliveries.allSatisfy { $0["state"] as? String == "done" }, "\(deliveries)")
        // Every counted attempt reached the receiver, whole or cut (one the shutdown cut goes back
        // uncounted, unless the server had to be killed and its lease ran out).
        let attempts = deliveries.map { $0["attempts"] as? Int ?? 0 }.reduce(0, +)
        #expect(attempts >= 4 && attempts <= lines.count + cut.count, "\(attempts) attempts, \(lines.count) received whole, \(cut.count) cut: \(deliveries)")
        await server.stop()
        await receiver.stop(SIGTERM, timeout: 10)
    }

    @Test("""
    at start the server says when webhook secrets stay in plain text (no --secrets-key-file) or are \
    sealed with a key it was not given; sealed and opened, it says nothing
    """)
    func secretsNote() async throws {
        let home = try RollHome()
        let secret = home.folder.path("hook.key"), key = home.folder.path("a.key"), other = home.folder.path("b.key")
        try Data("a-webhook-secret-of-32-bytes-ok!\n".utf8).write(to: URL(fileURLWithPath: secret))
        try Data("the first key for secrets at rest".utf8).write(to: URL(fileURLWithPath: key))
        try Data("the other key for secrets at rest".utf8).write(to: URL(fileURLWithPath: other))
        let hook = ["--webhook", "http://127.0.0.1:9/hooks", "--webhook-secret-file", secret]
        func notes(_ extra: [String]) async throws -> [String] {
            let server = try await ServeProcess(extra, home: home)
            let stderr = server.stderr
            await server.stop()
            return stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("feed: note:") && $0.contains("webhook") }
        }
        #expect(try await notes(hook) == ["feed: note: 1 webhook secret(s) are kept in plain text in the catalog; give --secrets-key-file "
                                          + "(a file of 32 bytes or more, on every server and worker sharing the catalog) to seal them"])
        #expect(try await notes(hook + ["--secrets-key-file", key]) == [], "sealed now, and this server opens it")
        // Another key alone cannot seal it again: the server does not start, naming what to give.
        let refused = try await home.run(["serve", "--port", "0", "--secrets-key-file", other])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("feed: webhook http://127.0.0.1:9/hooks: its secret is sealed with key ")
                && refused.stderr.hasSuffix(", which this process was not given: give that key's --secrets-key-file after the new one\n"),
                "\(refused.status) \(refused.stderr)")
        let closed = try await notes([])
        #expect(closed.count == 1 && closed[0].hasPrefix("feed: note: 1 webhook secret(s) are sealed with key ")
                && closed[0].hasSuffix(", which this process was not given: their deliveries fail here; give that key's --secrets-key-file"),
                "\(closed)")
        #expect(try await notes(["--secrets-key-file", other, "--secrets-key-file", key]) == [], "rotated: sealed again under the first")
    }

    @Test("endpoints that never answer (one refuses, one hangs): each delivery stops after the window, failed, naming the last attempt")
    func givesUp() async throws {
        let home = try RollHome()
        let secret = home.folder.path("hook.key"), log = home.folder.path("received.jsonl"), portFile = home.folder.path("port")
        try Data("another-webhook-secret-32-bytes!".utf8).write(to: URL(fileURLWithPath: secret))
        // A port nothing listens on (every attempt refused), and a receiver that reads and never answers.
        let refused = try await Tool.run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.receiverScript, "--secret-file", secret, "--log", log, "--port-file", portFile, "--hang"]
        let receiver = try ChildProcess(process)  // long-lived: no permit of the limiter
        try #require(try await waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: portFile) })
        let hanging = "http://127.0.0.1:\(try String(contentsOfFile: portFile, encoding: .utf8))/"
        let server = try await ServeProcess(["--quiet", "--webhook", "http://127.0.0.1:\(refused)/", "--webhook", hanging,
                                             "--webhook-secret-file", secret, "--webhook-retry", "0.2", "--webhook-window", "2s"], home: home)
        let clip = try home.clip("clip.mp4", seed: 6, width: 64, height: 48, frames: 10)
        #expect(try await FeedProcess.run(["push", clip, "--server", server.base]).status == 0)
        var deliveries: [[String: Any]] = []
        // Each look runs `feed webhooks`: twice a second is enough (a process every 50 ms would load the suite).
        let failed = try await waitUntil(timeout: 90, every: 0.5) {
            deliveries = (try? await home.run(["webhooks", "--json"]).json() as? [[String: Any]]) ?? []
            return deliveries.count == 2 && deliveries.allSatisfy { $0["state"] as? String == "failed" }
        }
        #expect(failed, "\(deliveries)")
        for delivery in deliveries {
            let error = delivery["error"] as? String ?? ""
            #expect(error.hasPrefix("no 2xx within 2 s of the event; last attempt"), "\(delivery)")
        }
        #expect(Self.received(log).count >= 1 && Self.received(log).allSatisfy { $0["verified"] as? Bool == true },
                "the hanging receiver got the request, signed")
        await server.stop()
        await receiver.stop(SIGTERM, timeout: 10)
    }
}
