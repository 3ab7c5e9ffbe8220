import FeedTestSupport
import Foundation
import Testing

/// `feed serve`'s CORS and HTTP semantics over a real socket, with curl.
@Suite("feed serve: CORS, HEAD, 405")
struct ServeCORSTests {
    @Test("loopback without a token allows any origin; --cors lists them; with --token none unless listed")
    func defaults() async throws {
        let open = try await ServeProcess(["--quiet"])
        let any = try await open.curl("/videos", ["-H", "Origin: http://localhost:5173"])
        #expect(any.status == 200 && any.headers["access-control-allow-origin"] == "*", "\(any.headers)")
        let preflight = try await open.curl("/uploads/abc", ["-X", "OPTIONS", "-H", "Origin: http://localhost:5173",
                                                             "-H", "Access-Control-Request-Method: PATCH",
                                                             "-H", "Access-Control-Request-Headers: upload-offset, tus-resumable, content-type"])
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-headers"] == "upload-offset, tus-resumable, content-type")
        let head = try await open.curl("/v1/videos/popular", ["-I"])
        #expect(head.status == 200 && Int(head.headers["content-length"] ?? "") ?? 0 > 0, "\(head.headers)")
        let wrong = try await open.curl("/videos", ["-X", "DELETE"])
        #expect(wrong.status == 405 && wrong.headers["allow"] == "GET, HEAD, POST" && wrong.problem?.kind == "usage", "\(wrong.text)")
        await open.stop()

        let guarded = try await ServeProcess(["--quiet", "--token", "s3cret", "--cors", "https://app.example.com"])
        let listed = try await guarded.curl("/videos", ["-H", "Origin: https://app.example.com"])
        #expect(listed.headers["access-control-allow-origin"] == "https://app.example.com" && listed.headers["vary"]?.contains("Origin") == true)
        let other = try await guarded.curl("/videos", ["-H", "Origin: http://localhost:5173", "-H", "Authorization: Bearer s3cret"])
        #expect(other.status == 200 && other.headers["access-control-allow-origin"] == nil)
        await guarded.stop()

        let tokenOnly = try await ServeProcess(["--quiet", "--token", "s3cret"])
        #expect(try await tokenOnly.curl("/videos", ["-H", "Origin: http://localhost:5173"]).headers["access-control-allow-origin"] == nil)
        await tokenOnly.stop()
    }

    @Test("bad --cors values are usage errors (64) naming what is wrong", arguments: [
        (["--cors", "*", "--token", "t"], "--cors * cannot go with a key or --token"),
        (["--cors", "app.example.com"], "--cors app.example.com: an origin is scheme://host[:port]"),
        (["--cors", "https://app.example.com/path"], "an origin is scheme://host[:port]"),
        (["--cors", "*", "--cors", "https://a.example"], "--cors *: any origin already"),
    ])
    func badOrigins(arguments: [String], message: String) async throws {
        let run = try await FeedProcess.run(["serve", "--port", "0"] + arguments)
        #expect(run.status == 64 && run.stderr.contains(message), "\(run.stderr)")
    }
}
