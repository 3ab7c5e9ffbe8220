import FeedTestSupport
import Foundation
import Testing

/// RTMPS: ffmpeg publishing over TLS to nginx's stream module (packaging/nginx/feed-rtmps.conf as
/// the docs give it, its ports and paths replaced), which passes the RTMP bytes to `feed serve
/// --rtmp-port` on loopback.
@Suite("feed serve: RTMPS through nginx")
struct ServeRTMPSTests {
    @Test("ffmpeg publishes rtmps:// through the documented TLS proxy: the stream goes active and its playlist plays; a wrong key is still refused")
    func throughNginx() async throws {
        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let created = try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"rtmps"}"#]).json()
        let key = try #require(created["stream_key"] as? String)
        let rtmp = try #require(created["rtmp_url"] as? String)
        let rtmpPort = try #require(rtmp.split(separator: ":").last?.split(separator: "/").first.map(String.init))

        let folder = try ScratchFolder()
        let cert = folder.path("cert.pem"), certKey = folder.path("key.pem")
        let made = try await Tool.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", certKey, "-out", cert,
                                                           "-days", "1", "-subj", "/CN=127.0.0.1"])
        try #require(made.status == 0, "\(made.stderr)")
        let port = try await Tool.run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var site = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("packaging/nginx/feed-rtmps.conf"), encoding: .utf8)
        for (from, to) in [("listen 443 ssl;", "listen 127.0.0.1:\(port) ssl;"), ("/etc/ssl/certs/feed.example.com.pem", cert),
                           ("/etc/ssl/private/feed.example.com.key", certKey), ("proxy_pass 127.0.0.1:1935;", "proxy_pass 127.0.0.1:\(rtmpPort);")] {
            #expect(site.contains(from), "feed-rtmps.conf no longer has \(from)")
            site = site.replacingOccurrences(of: from, with: to)
        }
        let nginx = folder.path("nginx")
        try FileManager.default.createDirectory(atPath: nginx, withIntermediateDirectories: true)
        try site.write(toFile: nginx + "/stream.conf", atomically: true, encoding: .utf8)
        let user = try await Tool.run("/usr/bin/id", ["-un"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try """
            load_module /usr/lib/nginx/modules/ngx_stream_module.so;
            daemon off;
            master_process off;
            user \(user);
            pid \(nginx)/nginx.pid;
            error_log \(nginx)/error.log warn;
            events { worker_connections 64; }
            include \(nginx)/stream.conf;
            """.write(toFile: nginx + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-e", nginx + "/error.log", "-p", nginx, "-c", nginx + "/nginx.conf"]
        process.standardInput = FileHandle.nullDevice
        let proxy = try ChildProcess(process)  // long-lived: no permit of the limiter
        defer { proxy.signal(SIGKILL) }
        let up = try await waitUntil(timeout: 30, every: 0.1) {
            (try? await Tool.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-brief"], limited: false))?.stderr
                .contains("CONNECTION ESTABLISHED") == true
        }
        try #require(up, "nginx did not take TLS: \((try? String(contentsOfFile: nginx + "/error.log", encoding: .utf8)) ?? "")")

        let url = "rtmps://127.0.0.1:\(port)/live"
        let wrong = try ServeLiveTests.publisher(url + "/sk_" + String(repeating: "0", count: 40), seconds: 1, log: folder.url("wrong.log"))
        #expect(await wrong.exitStatus() != 0)
        let publisher = try ServeLiveTests.publisher(url + "/" + key, seconds: 600, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        let active = try await waitUntil(timeout: 30, every: 0.2) { try await serve.curl("/live/1").json()["state"] as? String == "active" }
        #expect(active, "\((try? String(contentsOf: folder.url("publisher.log"), encoding: .utf8)) ?? "")")
        let parts = try await waitUntil(timeout: 30, every: 0.2) { try await serve.curl("/live/1/index.m3u8").text.contains("#EXT-X-PART:") }
        #expect(parts)
        #expect(try await serve.curl("/live/1", ["-X", "DELETE"]).status == 200)
        #expect(await publisher.exits(within: 30), "the publisher was not disconnected")
        #expect(await serve.stop() == 0)
    }
}
