import FeedTestSupport
import Foundation
import Testing

/// HTTP/1.0 clients (health checks, `nc`, old tools) against a real `feed serve`, over plain
/// sockets (Scripts/http10.py): 1.0 answers, the connection closed after each unless the client
/// asked to keep it, and a body of unknown length ended by the close rather than chunked.
@Suite("feed serve and HTTP/1.0")
struct ServeHTTP10Tests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/http10.py").path

    /// What http10.py saw.
    struct Exchange {
        var head: String
        var body: String
        var closed: Bool

        /// The head's lines after the status line, lowercased.
        var fields: [String] { head.lowercased().components(separatedBy: "\r\n").dropFirst().map { $0 } }
    }

    static func exchange(_ server: ServeProcess, _ request: String, seconds: Double = 20, until: (String, Int)? = nil) async throws -> Exchange {
        let port = try #require(server.base.split(separator: ":").last.map(String.init))
        var arguments = [script, port, request, String(seconds)]
        if let until { arguments += [until.0, String(until.1)] }
        let run = try await Tool.run("/usr/bin/python3", arguments)
        try #require(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return Exchange(head: object["head"] as? String ?? "", body: object["body"] as? String ?? "", closed: object["closed"] as? Bool ?? false)
    }

    @Test("a 1.0 request: a 1.0 answer, and the server closes the connection after it (it waited for the idle timeout)")
    func closesAfterTheResponse() async throws {
        let server = try await ServeProcess(["--quiet", "--idle-timeout", "60"])
        for (request, status) in [("GET /videos/1450 HTTP/1.0\\r\\n\\r\\n", "200"), ("GET /nope HTTP/1.0\\r\\n\\r\\n", "404"),
                                  ("HEAD /videos HTTP/1.0\\r\\n\\r\\n", "200")] {
            let answer = try await Self.exchange(server, request)
            #expect(answer.head.hasPrefix("HTTP/1.0 \(status) "), "\(request): \(answer.head)")
            #expect(answer.closed, "\(request): the connection was still open")
            #expect(answer.fields.contains("connection: close"))
        }
        let shown = try await Self.exchange(server, "GET /videos/1450 HTTP/1.0\\r\\n\\r\\n")
        let length = try #require(shown.fields.first { $0.hasPrefix("content-length: ") }.flatMap { Int($0.dropFirst(16)) })
        #expect(shown.body.utf8.count == length && shown.body.contains(#""id":1450"#))
        await server.stop()
    }

    @Test("a 1.0 request with Connection: keep-alive stays open and says so; HTTP/1.1 is unchanged")
    func keepAlive() async throws {
        let server = try await ServeProcess(["--quiet", "--idle-timeout", "60"])
        // The server keeps the connection: the script gives up after its 2 s, not the server.
        let kept = try await Self.exchange(server, "GET /videos/1450 HTTP/1.0\\r\\nConnection: keep-alive\\r\\n\\r\\n", seconds: 2)
        #expect(kept.head.hasPrefix("HTTP/1.0 200 ") && kept.fields.contains("connection: keep-alive"), "\(kept.head)")
        #expect(!kept.closed)
        let eleven = try await Self.exchange(server, "GET /videos/1450 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", seconds: 2)
        #expect(eleven.head.hasPrefix("HTTP/1.1 200 ") && !eleven.closed && !eleven.fields.contains { $0.hasPrefix("connection:") })
        await server.stop()
    }

    @Test("an event stream to a 1.0 client is not chunked: its events as they are, ended by the connection's close")
    func eventStream() async throws {
        let server = try await ServeProcess(["--quiet"])
        for request in ["GET /comments/live?interval=0.05 HTTP/1.0\\r\\n\\r\\n",
                        "GET /comments/live?interval=0.05 HTTP/1.0\\r\\nConnection: keep-alive\\r\\n\\r\\n"] {
            let answer = try await Self.exchange(server, request, until: ("event: comment", 3))
            #expect(answer.head.hasPrefix("HTTP/1.0 200 "), "\(answer.head)")
            #expect(!answer.fields.contains { $0.hasPrefix("transfer-encoding") || $0.hasPrefix("content-length") }, "\(answer.head)")
            #expect(answer.fields.contains("connection: close"))
            // Unchunked: the body starts with the first event, not a chunk's size.
            #expect(answer.body.hasPrefix("event: comment\nid: 0\ndata: {"), "\(answer.body.prefix(80))")
        }
        await server.stop()
    }
}
