import FeedTestSupport
import Foundation
import Testing

/// A real `feed serve` spoken to over plain sockets (Scripts/http10.py), as curl would not:
/// HTTP/1.0 clients (health checks, `nc`, old tools) get answers framed as 1.0 frames them, under
/// an `HTTP/1.1` status line (the server's version, RFC 9112 §2.3), the connection closed after
/// each unless they asked to keep it, and a body of unknown length ended by the close rather
/// than chunked; heads the parser refuses, and 1.1 requests without one good Host, get problem
/// details with the status RFC 9110 names, and the connection closed.
@Suite("feed serve over raw HTTP/1")
struct ServeRawHTTPTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/http10.py").path

    /// What http10.py saw.
    struct Exchange {
        var head: String
        var body: String
        /// Every byte that came, for several responses.
        var raw: String
        var closed: Bool

        /// The status lines of every response in `raw`, in order.
        var statusLines: [String] { raw.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("HTTP/1.") } }

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
        return Exchange(head: object["head"] as? String ?? "", body: object["body"] as? String ?? "", raw: object["raw"] as? String ?? "",
                        closed: object["closed"] as? Bool ?? false)
    }

    @Test("a 1.0 request: an answer under HTTP/1.1 (the server's version), and the server closes the connection after it (it waited for the idle timeout)")
    func closesAfterTheResponse() async throws {
        let server = try await ServeProcess(["--quiet", "--idle-timeout", "60"])
        for (request, status) in [("GET /videos/1450 HTTP/1.0\\r\\n\\r\\n", "200"), ("GET /nope HTTP/1.0\\r\\n\\r\\n", "404"),
                                  ("HEAD /videos HTTP/1.0\\r\\n\\r\\n", "200")] {
            let answer = try await Self.exchange(server, request)
            #expect(answer.head.hasPrefix("HTTP/1.1 \(status) "), "\(request): \(answer.head)")
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
        #expect(kept.head.hasPrefix("HTTP/1.1 200 ") && kept.fields.contains("connection: keep-alive"), "\(kept.head)")
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
            #expect(answer.head.hasPrefix("HTTP/1.1 200 "), "\(answer.head)")
            #expect(!answer.fields.contains { $0.hasPrefix("transfer-encoding") || $0.hasPrefix("content-length") }, "\(answer.head)")
            #expect(answer.fields.contains("connection: close"))
            // Unchunked: the body starts with the first event, not a chunk's size.
            #expect(answer.body.hasPrefix("event: comment\nid: 0\ndata: {"), "\(answer.body.prefix(80))")
        }
        await server.stop()
    }

    @Test("refused heads: no Host, two, a bad one (400); an unknown method (501), garbage (400); HTTP/2.0 (505); a head over 80 KiB (431), a target (414); each problem details, then closed")
    func refusedHeads() async throws {
        let server = try await ServeProcess(["--quiet"])
        let big = String(repeating: "a", count: 100_000)
        let cases: [(request: String, status: Int, detail: String)] = [
            ("GET /videos/1450 HTTP/1.1\\r\\n\\r\\n", 400, "GET /videos/1450: an HTTP/1.1 request needs a Host header"),
            ("GET /videos HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n", 400, "GET /videos: more than one Host header"),
            ("GET /videos HTTP/1.1\\r\\nHost: a/b\\r\\n\\r\\n", 400, "GET /videos: the Host header is not a host and port"),
            ("BREW /videos HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n", 501, "the request's method is not one this server knows"),
            ("GET /videos HTTP/2.0\\r\\nHost: a\\r\\n\\r\\n", 505, "the request's HTTP version is not 1.0 or 1.1"),
            ("GET /videos HTTP/1.1\\r\\nHost: a\\r\\nX-Big: \(big)\\r\\n\\r\\n", 431, "the request's head is larger than 80 KiB"),
            ("GET /videos?q=\(big) HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n", 414, "the request's target (its path and query) is longer than 80 KiB"),
            ("\u{01}\u{02}garbage\\r\\n\\r\\n", 400, "the request cannot be parsed as HTTP/1.1"),
            ("hello there\\r\\n\\r\\n", 400, "the request cannot be parsed as HTTP/1.1"),
            ("GET /videos HTTP/1.1\\r\\nHost:\\r\\n\\r\\n", 400, "GET /videos: the Host header is not a host and port"),
            ("POST /comments HTTP/1.0\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\n", 400,
             "POST /comments: an HTTP/1.0 request cannot have Transfer-Encoding"),
        ]
        for (request, status, detail) in cases {
            let answer = try await Self.exchange(server, request)
            let label = String(request.prefix(40))
            #expect(answer.head.hasPrefix("HTTP/1.1 \(status) "), "\(label): \(answer.head)")
            #expect(answer.closed && answer.fields.contains("connection: close"), "\(label)")
            #expect(answer.fields.contains("content-type: application/problem+json"), "\(label)")
            let problem = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(label): \(answer.body)")
            #expect(problem["status"] as? Int == status && problem["detail"] as? String == detail, "\(label): \(answer.body)")
            #expect((problem["title"] as? String)?.isEmpty == false, "\(label): \(answer.body)")
        }
        // A body the parser cannot read (a bad chunk size) is the route's to answer: 400, the client's doing.
        let chunked = try await Self.exchange(server, "POST /comments HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\nContent-Type: application/json\\r\\n\\r\\nZZZ\\r\\n")
        #expect(chunked.head.hasPrefix("HTTP/1.1 400 ") && chunked.body.contains(#""kind":"usage""#), "\(chunked.raw)")
        // Host may be left out of 1.0, and a good one is taken, spaces around it too.
        #expect(try await Self.exchange(server, "GET /videos/1450 HTTP/1.0\\r\\n\\r\\n").head.hasPrefix("HTTP/1.1 200 "))
        #expect(try await Self.exchange(server, "GET /videos/1450 HTTP/1.1\\r\\nHost: x:80 \\r\\nConnection: close\\r\\n\\r\\n")
            .head.hasPrefix("HTTP/1.1 200 "))
        #expect(try await Self.exchange(server, "GET /videos/1450 HTTP/1.1\\r\\nHost: [::1]:8080\\r\\nConnection: close\\r\\n\\r\\n")
            .head.hasPrefix("HTTP/1.1 200 "))
        await server.stop()
    }

    @Test("pipelined: a refusal is answered after the requests before it, never instead of them or inside a streaming answer")
    func refusalsTakeTheirTurn() async throws {
        let server = try await ServeProcess(["--quiet"])
        let get = "GET /videos/1450 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
        for (second, status) in [("BREW / HTTP/1.1\\r\\n\\r\\n", "501"), ("GET /videos HTTP/1.1\\r\\n\\r\\n", "400")] {
            let answer = try await Self.exchange(server, get + get + second)
            #expect(answer.statusLines == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 \(status) \(status == "501" ? "Not Implemented" : "Bad Request")"],
                    "\(answer.statusLines)")
            #expect(answer.closed)
        }
        // A comment posted before a refused request is stored, and its 201 arrives first.
        let body = #"{"username":"pipelined","comment":"stored before the refusal"}"#
        let post = "POST /comments HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nContent-Length: \(body.utf8.count)\\r\\n\\r\\n\(body)"
        let posted = try await Self.exchange(server, post + "BREW / HTTP/1.1\\r\\n\\r\\n")
        #expect(posted.statusLines.first == "HTTP/1.1 201 Created" && posted.statusLines.count == 2, "\(posted.statusLines)")
        // Behind a live stream, a Host-less request waits: the stream's chunks come unbroken.
        let live = try await Self.exchange(server, "GET /comments/live?interval=0.05 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /videos HTTP/1.1\\r\\n\\r\\n",
                                           until: ("event: comment", 3))
        #expect(live.statusLines == ["HTTP/1.1 200 OK"], "\(live.statusLines)")
        await server.stop()
    }

    @Test("behind a 1.0 keep-alive request whose answer closes the connection, nothing is processed; behind one that keeps it, in turn; Connection: Close in any case closes")
    func nothingAfterClose() async throws {
        let server = try await ServeProcess(["--quiet"])
        // A finished job's event stream: a body of unknown length that ends.
        #expect(try await server.home.run(["jobs", "add", "noop"]).status == 0)
        let done = try await waitUntil(timeout: 30, every: 0.05) { (try? await server.curl("/jobs/1").json()["state"] as? String) == "done" }
        #expect(done)
        let body = #"{"username":"late","comment":"sent behind a 1.0 request"}"#
        let post = "POST /comments HTTP/1.0\\r\\nConnection: keep-alive\\r\\nContent-Type: application/json\\r\\nContent-Length: \(body.utf8.count)\\r\\n\\r\\n\(body)"
        let closing = try await Self.exchange(server, "GET /jobs/1/events HTTP/1.0\\r\\nConnection: keep-alive\\r\\n\\r\\n" + post)
        #expect(closing.head.hasPrefix("HTTP/1.1 200 ") && closing.fields.contains("connection: close") && closing.closed, "\(closing.head)")
        #expect(closing.statusLines.count == 1 && closing.body.contains("event: done"), "\(closing.raw)")
        #expect(try await !server.curl("/comments").text.contains("sent behind a 1.0 request"), "the POST after the closing answer was processed")

        let kept = try await Self.exchange(server, "GET /videos/1450 HTTP/1.0\\r\\nConnection: keep-alive\\r\\n\\r\\n" + post, seconds: 3)
        #expect(kept.statusLines == ["HTTP/1.1 200 OK", "HTTP/1.1 201 Created"], "\(kept.statusLines)")
        #expect(try await server.curl("/comments").text.contains("sent behind a 1.0 request"))

        for value in ["Close", "close, te", "TE, CLOSE"] {
            let closed = try await Self.exchange(server, "GET /videos/1450 HTTP/1.1\\r\\nHost: x\\r\\nConnection: \(value)\\r\\n\\r\\n", seconds: 5)
            #expect(closed.head.hasPrefix("HTTP/1.1 200 ") && closed.closed, "Connection: \(value)")
        }
        // 1.0 has no 100 Continue: the expectation is ignored, the body read as it comes.
        let expecting = try await Self.exchange(server, "POST /comments HTTP/1.0\\r\\nExpect: 100-continue\\r\\nContent-Type: application/json\\r\\nContent-Length: \(body.utf8.count)\\r\\n\\r\\n\(body)")
        #expect(expecting.statusLines == ["HTTP/1.1 201 Created"], "\(expecting.statusLines)")
        await server.stop()
    }
}
