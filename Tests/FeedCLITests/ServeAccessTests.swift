import FeedTestSupport
import Foundation
import Testing

/// `feed serve` with a key, over a real socket: tokens from `feed token`, scopes, and signed
/// links that curl and ffmpeg open with no header (a whole HLS ladder included).
@Suite("feed serve: tokens and signed links")
struct ServeAccessTests {
    /// A roll with one recording, a secret file beside it, and a server that verifies tokens with it.
    static func keyedServer(_ extra: [String] = []) async throws -> (RollHome, ServeProcess, secret: String) {
        let home = try RollHome()
        let clip = try home.clip("clip.mp4", seed: 3, width: 128, height: 96, frames: 30)
        #expect(try await home.run(["roll", "add", clip]).status == 0)
        let secret = home.folder.path("secret.key")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: secret))
        let server = try await ServeProcess(["--quiet", "--jwt-secret-file", secret] + extra, home: home)
        return (home, server, secret)
    }

    /// The newest recording of `/roll` as an admin reads it (its signed `url`, `poster_url`, `hls_url`).
    static func newestRecording(_ server: ServeProcess, secret: String) async throws -> [String: Any] {
        let admin = try await token(secret, ["--user", "ops", "--scope", "admin"])
        let page = try await server.curl("/roll", ["-H", "Authorization: Bearer \(admin)"]).json()
        return try #require((page["recordings"] as? [[String: Any]])?.first, "\(page)")
    }

    /// A token `feed token` mints.
    static func token(_ secret: String, _ arguments: [String]) async throws -> String {
        let run = try await FeedProcess.run(["token", "--jwt-secret-file", secret] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("feed token's tokens: a user reads and likes; read alone cannot like (403); none, a changed one: 401")
    func tokens() async throws {
        let (_, server, secret) = try await Self.keyedServer()
        let alice = try await Self.token(secret, ["--user", "alice"])
        let reader = try await Self.token(secret, ["--user", "bob", "--scope", "read"])
        #expect(try await server.curl("/videos").status == 401)
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer \(alice)"]).status == 200)
        #expect(try await server.curl("/videos/1235/like", ["-X", "PUT", "-H", "Authorization: Bearer \(alice)"]).status == 200)
        let refused = try await server.curl("/videos/1235/like", ["-X", "PUT", "-H", "Authorization: Bearer \(reader)"])
        #expect(refused.status == 403 && refused.problem?.kind == "forbidden"
            && refused.headers["www-authenticate"] == #"Bearer error="insufficient_scope", scope="upload""#, "\(refused.headers)")
        let changed = try await server.curl("/videos", ["-H", "Authorization: Bearer \(alice.dropLast())"])
        #expect(changed.status == 401 && changed.problem?.detail.contains("signature") == true, "\(changed.text)")
        #expect(try await server.curl("/openapi.json").status == 200)
        // The health check needs no token: a load balancer has none.
        let health = try await server.curl("/healthz")
        #expect(health.status == 200 && health.text == "{\"status\":\"ok\"}\n" && health.headers["cache-control"] == "no-store", "\(health.text)")
        await server.stop()
    }

    @Test("a flood of bad tokens from one address: the first 10 are looked at (401), then 429 with Retry-After before any check")
    func refusalsAreLimited() async throws {
        let (_, server, secret) = try await Self.keyedServer()
        let forged = try await Self.token(secret, ["--user", "alice"]) + "x"
        // One curl, one connection, 100 requests, each body kept (bodies/N): a second or so at most.
        let bodies = try ScratchFolder()
        let run = try await Tool.run("/usr/bin/curl", ["-s", "-w", "%{http_code} %header{retry-after}\n", "-H", "Authorization: Bearer \(forged)",
                                                       "-o", bodies.path("#1"), server.base + "/videos?n=[1-100]"], limited: false)
        let answers = run.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: false) }
        #expect(answers.count == 100, "\(run.stdout)")
        #expect(answers.prefix(10).allSatisfy { $0.first == "401" }, "the bucket's first 10 are verified: \(run.stdout)")
        let limited = answers.indices.filter { answers[$0].first == "429" }
        #expect(!limited.isEmpty && limited.allSatisfy { Int(answers[$0].last ?? "") ?? 0 >= 1 }, "\(run.stdout)")
        if let first = limited.first {
            let body = String(decoding: try Data(contentsOf: bodies.url("\(first + 1)")), as: UTF8.self)
            #expect(body.contains("refused credentials a second from this address"), "\(body)")
        }
        await server.stop()
    }

    @Test("users own what they push: alice sees her recording, bob neither lists nor reads it (404), the CLI's row is the admin's only")
    func ownership() async throws {
        let (home, server, secret) = try await Self.keyedServer()
        let alice = try await Self.token(secret, ["--user", "alice"]), bob = try await Self.token(secret, ["--user", "bob"])
        let admin = try await Self.token(secret, ["--user", "ops", "--scope", "admin"])
        let clip = try home.clip("mine.mp4", seed: 4, width: 64, height: 48, frames: 10)
        let push = try await FeedProcess.run(["push", clip, "--server", server.base, "--token", alice, "--json"])
        #expect(push.status == 0, "\(push.stderr)")
        let id = try #require((try push.json() as? [[String: Any]])?.first?["recording_id"] as? Int, "\(push.stdout)")
        func ids(_ token: String) async throws -> [Int] {
            let page = try await server.curl("/roll", ["-H", "Authorization: Bearer \(token)"]).json()
            return (page["recordings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        }
        #expect(try await ids(alice) == [id])
        #expect(try await ids(bob).isEmpty)
        #expect(try await ids(admin).sorted() == [1, id], "the admin sees the CLI's row (1) and alice's")
        #expect(try await server.curl("/roll/\(id)", ["-H", "Authorization: Bearer \(alice)"]).json()["owner"] as? String == "alice")
        for path in ["/roll/\(id)", "/media/roll/\(id)", "/roll/1"] {
            let other = try await server.curl(path, ["-H", "Authorization: Bearer \(bob)"])
            #expect(other.status == 404 && other.problem?.kind == "notFound", "\(path): \(other.status)")
        }
        #expect(try await server.curl("/roll/\(id)", ["-X", "DELETE", "-H", "Authorization: Bearer \(bob)"]).status == 404)
        let stack = try await server.curl("/jobs/stack", ["-X", "POST", "-H", "Authorization: Bearer \(bob)",
                                                          "-d", #"{"front":{"recording":\#(id)},"back":{"recording":\#(id)}}"#])
        #expect(stack.status == 404, "bob cannot stack alice's recording: \(stack.text)")
        // Likes are each user's.
        #expect(try await server.curl("/videos/1235/like", ["-X", "PUT", "-H", "Authorization: Bearer \(alice)"]).status == 200)
        let bobs = try await server.curl("/likes", ["-H", "Authorization: Bearer \(bob)"]).json()
        let alices = try await server.curl("/likes", ["-H", "Authorization: Bearer \(alice)"]).json()
        #expect((bobs["videos"] as? [Any])?.isEmpty == true && (alices["videos"] as? [Any])?.count == 1)
        let cli = try await home.run(["list", "--liked", "--json"])
        #expect(cli.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "the CLI's marks are its own: \(cli.stdout)")
        #expect(try await server.curl("/roll/\(id)", ["-X", "DELETE", "-H", "Authorization: Bearer \(alice)"]).status == 204)
        await server.stop()
    }

    @Test("ffmpeg plays a recording's signed link and its HLS ladder through signed URIs, with no header; changed or moved: 403")
    func signedLinks() async throws {
        let (_, server, secret) = try await Self.keyedServer()
        let recording = try await Self.newestRecording(server, secret: secret)
        let url = try #require(recording["url"] as? String), hls = try #require(recording["hls_url"] as? String)
        let poster = try #require(recording["poster_url"] as? String)
        #expect(url.contains("/media/roll/1?exp=") && hls.contains("/roll/1/hls/master.m3u8?exp="), "\(url) \(hls)")

        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url])
        #expect(probe.status == 0 && (Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0.9, "\(probe.stderr)")
        #expect(try await ServeProcess.curl(poster).headers["content-type"] == "image/jpeg")

        // The playlists carry signed URIs; ffmpeg follows them to every segment with no header.
        let master = try await ServeProcess.curl(hls)
        #expect(master.status == 200 && master.text.contains(".m3u8?exp="), "\(master.text)")
        func frames(_ input: String) async throws -> Int {
            let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", input, "-map", "0:v", "-f", "framemd5", "-"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(input): \(run.stderr)")
            return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        }
        let (ladder, file) = (try await frames(hls), try await frames(url))
        #expect(ladder == file && file >= 30, "\(ladder) frames through the ladder, \(file) in the file")

        let moved = try await ServeProcess.curl(url.replacingOccurrences(of: "/media/roll/1?", with: "/media/roll/2?"))
        #expect(moved.status == 403 && moved.problem?.kind == "forbidden", "\(moved.text)")
        let tampered = try await ServeProcess.curl(url.replacingOccurrences(of: "exp=", with: "exp=1"))
        #expect(tampered.status == 403)
        let bare = try await ServeProcess.curl(String(url.prefix { $0 != "?" }))
        #expect(bare.status == 401)
        await server.stop()
    }

    @Test("feed token: --json, bad scopes (64), a missing secret file (66), a short secret (65)")
    func tokenCommand() async throws {
        let folder = try ScratchFolder()
        let secret = folder.path("secret.key"), short = folder.path("short.key")
        try Data(String(repeating: "s", count: 32).utf8).write(to: URL(fileURLWithPath: secret))
        try Data("short".utf8).write(to: URL(fileURLWithPath: short))
        let json = try await FeedProcess.run(["token", "--jwt-secret-file", secret, "--user", "ops", "--scope", "admin,read", "--ttl", "15m", "--json"])
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["user"] as? String == "ops" && object["scope"] as? String == "read admin", "\(json.stdout)")
        let token = try #require(object["token"] as? String)
        let claims = try #require(token.split(separator: ".").dropFirst().first)
        var base64 = claims.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let decoded = try #require(Data(base64Encoded: base64))
        let payload = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])
        let exp = try #require(payload["exp"] as? Int), iat = try #require(payload["iat"] as? Int)
        #expect(exp - iat == 900 && payload["sub"] as? String == "ops")

        let badScope = try await FeedProcess.run(["token", "--jwt-secret-file", secret, "--user", "a", "--scope", "root"])
        #expect(badScope.status == 64 && badScope.stderr.contains("--scope root: not a scope"), "\(badScope.stderr)")
        let missing = try await FeedProcess.run(["token", "--jwt-secret-file", folder.path("nope"), "--user", "a"])
        #expect(missing.status == 66 && missing.stderr.contains("nope: no such file"), "\(missing.stderr)")
        let tooShort = try await FeedProcess.run(["token", "--jwt-secret-file", short, "--user", "a"])
        #expect(tooShort.status == 65 && tooShort.stderr.contains("at least 32 bytes"), "\(tooShort.stderr)")
        let noFile = try await FeedProcess.run(["token", "--user", "a"])
        #expect(noFile.status == 64, "\(noFile.stderr)")
    }
}
