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
        #expect(try await server.curl("/videos", ["-H", "Authorization: Bearer other"]).status == 200, "a token is a caller of its own")
        await server.stop()
    }

    @Test("--rate must be above 0 (64)", arguments: ["0", "-1", "nan"])
    func badRate(rate: String) async throws {
        let run = try await FeedProcess.run(["serve", "--port", "0", "--rate", rate])
        #expect(run.status == 64 && run.stderr.contains("--rate"), "\(run.stderr)")
    }
}
