import FeedTestSupport
import Foundation
import Testing

/// `feed serve --rate`: 429 with Retry-After past a caller's rate, per caller.
@Suite("feed serve --rate")
struct ServeRateTests {
    @Test("one request in ten seconds: the second is 429 with Retry-After and problem details; another caller is not held back")
    func limits() async throws {
        let server = try await ServeProcess(["--quiet", "--rate", "0.1"])
        #expect(try await server.curl("/videos").status == 200)
        let refused = try await server.curl("/videos")
        #expect(refused.status == 429 && Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1 && refused.problem?.kind == "usage"
            && refused.problem?.detail.contains("--rate") == true, "\(refused.headers) \(refused.text)")
        await server.stop()
    }

    @Test("with users, the bucket is the user's: a new token of the same user is held back, another user and the admin are not")
    func perUser() async throws {
        let folder = try ScratchFolder()
        let secret = folder.path("secret.key")
        try Data(String(repeating: "r", count: 32).utf8).write(to: URL(fileURLWithPath: secret))
        let server = try await ServeProcess(["--quiet", "--rate", "0.1", "--jwt-secret-file", secret, "--token", "adm1n"])
        func token(_ user: String, _ ttl: String) async throws -> String {
            try await FeedProcess.run(["token", "--jwt-secret-file", secret, "--user", user, "--ttl", ttl]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let alice = try await token("alice", "1h"), alice2 = try await token("alice", "2h"), bob = try await token("bob", "1h")
        #expect(alice != alice2)
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer \(alice)"]).status == 200)
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer \(alice2)"]).status == 429, "the same user, another token")
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer \(bob)"]).status == 200)
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer adm1n"]).status == 200)
        // A refused request (401) takes nothing from anyone's bucket.
        #expect(try await server.curl("/videos").status == 401)
        await server.stop()
    }

    @Test("the Pexels routes' X-Ratelimit headers are the caller's bucket with --rate")
    func pexelsHeaders() async throws {
        let server = try await ServeProcess(["--quiet", "--rate", "0.01"])
        let before = Int(Date().timeIntervalSince1970)
        let page = try await server.curl("/v1/videos/popular")
        let reset = Int(page.headers["x-ratelimit-reset"] ?? "") ?? 0
        #expect(page.status == 200 && page.headers["x-ratelimit-limit"] == "1" && page.headers["x-ratelimit-remaining"] == "0", "\(page.headers)")
        #expect(reset >= before + 99 && reset <= before + 102, "full again in 100 s: \(reset - before)")
        #expect(try await server.curl("/v1/videos/popular").status == 429)
        await server.stop()
    }

    @Test("--rate must be above 0 (64)", arguments: ["0", "-1", "nan"])
    func badRate(rate: String) async throws {
        let run = try await FeedProcess.run(["serve", "--port", "0", "--rate", rate])
        #expect(run.status == 64 && run.stderr.contains("--rate"), "\(run.stderr)")
    }
}
