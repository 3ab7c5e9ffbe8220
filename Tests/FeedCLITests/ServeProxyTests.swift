import FeedTestSupport
import Foundation
import Testing

/// `feed serve --trust-proxy` behind nginx terminating TLS with a throwaway certificate, using
/// packaging/nginx/feed-tls.conf as the docs give it (its ports and paths replaced): https://
/// links that play, byte ranges, a tus upload that resumes, an event stream.
@Suite("feed serve behind nginx (TLS)")
struct ServeProxyTests {
    /// nginx running the documented configuration in front of `upstream`; stopped by `stop`.
    struct Proxy {
        let process: ChildProcess
        let base: String
        let folder: ScratchFolder

        static func start(upstream: String, folder: ScratchFolder) async throws -> Proxy {
            let nginx = try await DocumentedNginx.start("feed-tls.conf", in: .http, upstream: ("http://127.0.0.1:8080", upstream), scratch: folder)
            let child = nginx.process, port = nginx.port
            let base = "https://127.0.0.1:\(port)"
            // Up once it answers (over TLS, through to feed).
            let up = try await waitUntil(timeout: 30) {
                (try? await Tool.run("/usr/bin/curl", ["-sk", "-o", "/dev/null", "-w", "%{http_code}", base + "/openapi.yaml"]))?.stdout == "200"
            }
            try #require(up, "nginx did not answer: \(nginx.errorLog)")
            return Proxy(process: child, base: base, folder: folder)
        }

        func stop() async { _ = await process.stop(SIGQUIT, timeout: 10) }

        func curl(_ path: String, _ arguments: [String] = []) async throws -> ServeProcess.Reply {
            try await ServeProcess.curl(path.hasPrefix("https://") ? path : base + path, ["-k"] + arguments)
        }
    }

    @Test("https:// links through the proxy play with ffmpeg; ranges, a resumed tus upload and an event stream pass")
    func throughNginx() async throws {
        let (home, feed, clip) = try ServeCommandTests.feedHome()
        let secret = home.folder.path("secret.key")
        try Data(String(repeating: "p", count: 32).utf8).write(to: URL(fileURLWithPath: secret))
        let server = try await ServeProcess(["--feed", feed, "--quiet", "--trust-proxy", "--jwt-secret-file", secret], home: home)
        let proxy = try await Proxy.start(upstream: server.base, folder: home.folder)
        let token = try await FeedProcess.run(["token", "--jwt-secret-file", secret, "--user", "alice"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let auth = ["-H", "Authorization: Bearer \(token)"]

        // /videos: the local clip's link is https://, through the proxy, signed; ffmpeg plays it.
        let videos = try await proxy.curl("/videos", auth).json()
        let link = try #require((videos["videos"] as? [[String: Any]])?.first?["video"] as? String, "\(videos)")
        #expect(link.hasPrefix(proxy.base + "/media/videos/1?exp="), "\(link)")
        let play = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-tls_verify", "0", "-i", link, "-f", "null", "-"])
        #expect(play.status == 0 && play.stderr.isEmpty, "\(play.stderr)")
        let direct = try await ServeProcess.curl(server.base + "/videos", auth).json()
        #expect(((direct["videos"] as? [[String: Any]])?.first?["video"] as? String)?.hasPrefix(server.base) == true,
                "without the proxy's headers, links are the server's own")

        // A range, as the file has it.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let range = try await proxy.curl(link, ["-r", "100-199"])
        #expect(range.status == 206 && range.body == bytes[100..<200])

        // tus: half the file, then tuspy resumes from the server's offset through the proxy.
        let python = ["--insecure", "--header", "Authorization=Bearer \(token)", "--chunk-size", "\(bytes.count / 2 + 1)"]
        let first = try await Tuspy.upload(["--file", clip, "--endpoint", proxy.base + "/uploads", "--chunks", "1"] + python)
        #expect(first.url.hasPrefix(proxy.base + "/uploads/") && first.offset == bytes.count / 2 + 1, "\(first)")
        let head = try await proxy.curl(String(first.url.dropFirst(proxy.base.count)), ["-I", "-H", "Tus-Resumable: 1.0.0"] + auth)
        #expect(head.headers["upload-offset"] == String(first.offset))
        let rest = try await Tuspy.upload(["--file", clip, "--url", first.url] + python)
        #expect(rest.offset == bytes.count)
        let status = try await proxy.curl(String(first.url.dropFirst(proxy.base.count)), auth).json()
        let recording = try #require(status["recording_url"] as? String, "\(status)")
        #expect(recording.hasPrefix(proxy.base + "/media/roll/"), "\(recording)")
        let stored = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-tls_verify", "0", "-show_entries", "format=size", "-of", "csv=p=0", recording])
        #expect(stored.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(bytes.count), "\(stored.stderr)")

        // Server-Sent Events arrive one by one through the proxy (no buffering): the live cycle
        // of this feed's comments, which are the one posted here.
        let posted = try await proxy.curl("/comments", ["-X", "POST", "-H", "Content-Type: application/json",
                                                        "-d", #"{"username":"ann","comment":"through nginx"}"#] + auth)
        #expect(posted.status == 201, "\(posted.text)")
        let events = try await Tool.run("/bin/sh", ["-c", "/usr/bin/curl -skN -H 'Authorization: Bearer \(token)' '\(proxy.base)/comments/live?interval=0.05' | /bin/grep -m 3 '^event: comment'"])
        #expect(events.stdout.split(separator: "\n").count == 3, "\(events.stdout) \(events.stderr)")

        await proxy.stop()
        await server.stop()
    }
}
