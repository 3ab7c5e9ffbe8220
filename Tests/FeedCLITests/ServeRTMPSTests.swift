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
        let nginx = try await DocumentedNginx.start("feed-rtmps.conf", in: .stream, upstream: ("proxy_pass 127.0.0.1:1935;", "proxy_pass 127.0.0.1:\(rtmpPort);"),
                                                    scratch: folder)
        let proxy = nginx.process, port = nginx.port
        defer { proxy.signal(SIGKILL) }
        let up = try await waitUntil(timeout: 30, every: 0.1) {
            (try? await Tool.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-brief"], limited: false))?.stderr
                .contains("CONNECTION ESTABLISHED") == true
        }
        try #require(up, "nginx did not take TLS: \(nginx.errorLog)")

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
