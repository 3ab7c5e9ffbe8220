import FeedTestSupport
import Foundation
import Testing

/// `feed serve`'s limits and long bodies: `--max-upload`, `--idle-timeout` against a client
/// that trickles its request head, a file streamed in many chunks, and `/videos` bodies kept per
/// client address.
@Suite("feed serve limits")
struct ServeLimitsTests {
    @Test("--max-upload sets Tus-Max-Size: a POST up to it is created, one byte more is 413; a bad size is 64")
    func maxUpload() async throws {
        let server = try await ServeProcess(["--quiet", "--max-upload", "1M"])
        let tus = ["-H", "Tus-Resumable: 1.0.0"]
        let options = try await server.curl("/uploads", ["-X", "OPTIONS"])
        #expect(options.headers["tus-max-size"] == "1048576")
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 1048576"] + tus).status == 201)
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 1048577"] + tus).status == 413)

        for bad in ["0", "12Q", "-1", "99999999999T"] {
            let run = try await FeedProcess.run(["serve", "--port", "0", "--max-upload", bad])
            #expect(run.status == 64, "--max-upload \(bad): \(run.stderr)")
            #expect(run.stderr.contains("max-upload"), "\(run.stderr)")
        }
        await server.stop()
    }

    @Test("--idle-timeout closes a connection whose request head trickles in, and one that sends nothing")
    func slowClient() async throws {
        let server = try await ServeProcess(["--quiet", "--idle-timeout", "1"])
        let port = try #require(Int(server.base.split(separator: ":").last ?? ""))
        // One byte of a request head every 200 ms would take 6 s to finish it; the server must
        // close the connection about 1 s after it opened, and answer nothing.
        let started = Date()
        let slow = try SlowSocket(port: port)
        let head = Array("GET /videos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaa\r\n\r\n".utf8)
        let (sent, elapsed) = await slow.trickle(head, every: 0.2, from: started)
        #expect(sent < head.count, "the whole head went through in \(elapsed) s")
        #expect(elapsed < 4, "closed after \(elapsed) s")
        #expect(slow.received.isEmpty, "answered \(String(decoding: slow.received, as: UTF8.self))")

        let silent = try SlowSocket(port: port)
        #expect(try await waitUntil(timeout: 5, every: 0.1) { silent.isClosedByPeer })
        // The server still answers others.
        #expect(try await server.curl("/videos").status == 200)
        await server.stop()
    }

    @Test("Expect: 100-continue is answered with 100 Continue before the body is sent; a refused body still gets its own status")
    func expectContinue() async throws {
        let server = try await ServeProcess(["--quiet"])
        let scratch = try ScratchFolder()
        // curl waits for the 100 up to --expect100-timeout, then sends the body anyway: without
        // the 100 the request still succeeds, so the test reads the answers curl received.
        func post(_ body: String) async throws -> [String] {
            let headers = scratch.url("headers-\(UUID().uuidString)")
            let run = try await Tool.run("/usr/bin/curl", ["-s", "--max-time", "20", "--expect100-timeout", "15", "-D", headers.path, "-o", "/dev/null",
                                                         "-H", "Expect: 100-continue", "-H", "Content-Type: application/json",
                                                         "--data-binary", body, server.base + "/comments"],
                                        limited: false)
            #expect(run.status == 0, "\(run.stderr)")
            // The status line of each response block, in order.
            return String(decoding: try Data(contentsOf: headers), as: UTF8.self).components(separatedBy: "\r\n\r\n")
                .compactMap { $0.components(separatedBy: "\r\n").first }.filter { !$0.isEmpty }
        }
        #expect(try await post(#"{"username":"ana","comment":"hello"}"#) == ["HTTP/1.1 100 Continue", "HTTP/1.1 201 Created"])
        #expect(try await post(#"{"username":"#) == ["HTTP/1.1 100 Continue", "HTTP/1.1 400 Bad Request"])
        await server.stop()
    }

    @Test("a file longer than one chunk arrives whole and exact, and so does a range longer than one chunk")
    func longBodies() async throws {
        let home = try RollHome()
        // 5 MiB + 3 bytes of varied bytes: many 128 KiB chunks, a short last one.
        var bytes = [UInt8](repeating: 0, count: 5 << 20 + 3)
        var state: UInt32 = 12345
        for index in bytes.indices { state = state &* 1_103_515_245 &+ 12345; bytes[index] = UInt8(truncatingIfNeeded: state >> 16) }
        let file = home.folder.url("long.mp4")
        try Data(bytes).write(to: file)
        let feed = try home.folder.write("feed.json", #"{"videos":[{"id":1,"username":"a","video":"long.mp4"}]}"#)
        let server = try await ServeProcess(["--feed", feed], home: home)

        let whole = try await server.curl("/media/videos/1")
        #expect(whole.status == 200 && whole.headers["content-length"] == String(bytes.count))
        #expect(whole.body == Data(bytes))
        let from = 1_000_001, to = 4_500_000
        let range = try await server.curl("/media/videos/1", ["-r", "\(from)-\(to)"])
        #expect(range.status == 206 && range.headers["content-range"] == "bytes \(from)-\(to)/\(bytes.count)")
        #expect(range.body == Data(bytes[from...to]))
        // The access log counts the bytes the kernel sent.
        #expect(server.stderr.contains("GET /media/videos/1 206 \(to - from + 1) "), "\(server.stderr)")
        // Three responses on one keep-alive connection, a small range between two whole files:
        // each body ends where its Content-Length says, so the next response is intact.
        let scratch = try ScratchFolder()
        let url = server.base + "/media/videos/1"
        let keepAlive = try await Tool.run("/usr/bin/curl", ["-sv", "-o", scratch.path("a"), url, "--next", "-sv", "-r", "10-19", "-o", scratch.path("b"), url,
                                                             "--next", "-sv", "-o", scratch.path("c"), url])
        #expect(keepAlive.status == 0, "\(keepAlive.stderr)")
        #expect(keepAlive.stderr.contains("Re-using existing connection") || keepAlive.stderr.contains("Reusing existing"), "\(keepAlive.stderr)")
        #expect(try Data(contentsOf: scratch.url("b")) == Data(bytes[10...19]))
        #expect(try Data(contentsOf: scratch.url("a")) == Data(bytes))
        #expect(try Data(contentsOf: scratch.url("c")) == Data(bytes))
        // Two clients at once, one reading slowly, get the same bytes.
        let slow = Process()
        slow.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        slow.arguments = ["-s", "--limit-rate", "4M", "-o", scratch.path("slow"), server.base + "/media/videos/1"]
        let slowClient = try ChildProcess(slow)   // curl: no permit, like ServeProcess.curl
        let fast = try await server.curl("/media/videos/1")
        await slowClient.exitStatus()
        #expect(fast.body == Data(bytes))
        #expect(try Data(contentsOf: scratch.url("slow")) == Data(bytes))
        await server.stop()
    }

    @Test("/videos gives each client links to the address it used, also when answered from memory")
    func videosPerHost() async throws {
        let (home, feed, _) = try ServeCommandTests.feedHome()
        let server = try await ServeProcess(["--quiet", "--feed", feed], home: home)
        func firstVideo(host: String?, query: String = "") async throws -> String? {
            let headers = host.map { ["-H", "Host: \($0)"] } ?? []
            let videos = try await server.curl("/videos" + query, headers).json()["videos"] as? [[String: Any]]
            return videos?.first?["video"] as? String
        }
        for _ in 0..<2 {
            #expect(try await firstVideo(host: "phone.local:8080") == "http://phone.local:8080/media/videos/1")
            #expect(try await firstVideo(host: "10.0.0.7:9000") == "http://10.0.0.7:9000/media/videos/1")
            #expect(try await firstVideo(host: nil) == server.base + "/media/videos/1")
            #expect(try await firstVideo(host: "10.0.0.7:9000", query: "?sort=likes") == "http://10.0.0.7:9000/media/videos/two")
        }
        // A Host that is not a host and port is refused (RFC 9112 §3.2), so never echoed back.
        let refused = try await server.curl("/videos", ["-H", "Host: evil\"><script>"])
        #expect(refused.status == 400 && !refused.text.contains("<script>"), "\(refused.text)")
        await server.stop()
    }
}

/// A raw TCP client that sends one byte at a time and notices when the server closes. One
/// thread at a time uses it (the test's, or ``trickle(_:every:from:)``'s own).
private final class SlowSocket: @unchecked Sendable {
    private let descriptor: Int32
    private(set) var received: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { close(descriptor); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    /// Sends one byte; false once the connection is gone.
    func send(_ byte: UInt8) -> Bool {
        var value = byte
        return Glibc.send(descriptor, &value, 1, Int32(MSG_NOSIGNAL)) == 1
    }

    /// Sends `bytes` one at a time, `interval` seconds apart, until the server closes the
    /// connection; how many bytes went out, and the seconds from `start` to the close (or to the
    /// end). It runs on a thread of its own, waiting in poll(2) for the close, so neither the
    /// pace nor the time measured depends on when a thread of the busy cooperative pool is free,
    /// and none is held meanwhile.
    func trickle(_ bytes: [UInt8], every interval: Double, from start: Date) async -> (sent: Int, elapsed: Double) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var sent = 0
                while sent < bytes.count, self.send(bytes[sent]) {
                    sent += 1
                    if self.closes(within: interval) { break }
                }
                continuation.resume(returning: (sent, Date().timeIntervalSince(start)))
            }
        }
    }

    /// Waits `seconds` at most, in poll(2) on the calling thread, for the server to close the
    /// connection; whether it did.
    private func closes(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !isClosedByPeer {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(left * 1000) + 1)
        }
        return true
    }

    /// Whether the server closed the connection (reads what it sent meanwhile).
    var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { received += buffer[..<count]; continue }
            return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }
}
