import Foundation
import FeedCore
import FeedTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// CORS in process: which origins, which headers, preflights before the token check.
@Suite("CORS")
struct CrossOriginTests {
    static let origin = HTTPField.Name("Origin")!
    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let expose = HTTPField.Name("Access-Control-Expose-Headers")!
    static let requestMethod = HTTPField.Name("Access-Control-Request-Method")!
    static let requestHeaders = HTTPField.Name("Access-Control-Request-Headers")!

    @Test("any origin (loopback's default): every answer, errors too, allows it and exposes what players and tus clients read")
    func any() async throws {
        let f = try ServerFixture { $0.corsOrigins = ["*"] }
        try await f.test { client in
            let videos = try await client.execute(uri: "/videos", method: .get, headers: [Self.origin: "https://app.example.com"])
            #expect(videos.status == .ok && videos.headers[Self.allowOrigin] == "*")
            let exposed = Set((videos.headers[Self.expose] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(exposed.isSuperset(of: ["Location", "Upload-Offset", "Upload-Length", "Tus-Resumable", "Content-Range", "ETag",
                                            "X-Ratelimit-Remaining"]), "\(exposed)")
            let missing = try await client.execute(uri: "/videos/999999", method: .get, headers: [Self.origin: "https://app.example.com"])
            #expect(missing.status == .notFound && missing.headers[Self.allowOrigin] == "*" && missing.error?.kind == "notFound")
            let plain = try await client.execute(uri: "/videos", method: .get)
            #expect(plain.headers[Self.allowOrigin] == nil, "no Origin, no CORS headers")
        }
    }

    @Test("listed origins with a token: a preflight from one is 204 without the token; another origin gets no CORS header")
    func listed() async throws {
        let f = try ServerFixture { $0.corsOrigins = ["https://app.example.com"]; $0.token = "s3cret" }
        try await f.test { client in
            let preflight = try await client.execute(uri: "/uploads", method: .options, headers: [
                Self.origin: "https://app.example.com", Self.requestMethod: "POST",
                Self.requestHeaders: "authorization, tus-resumable, upload-length, upload-metadata"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[Self.allowOrigin] == "https://app.example.com")
            #expect(preflight.headers[HTTPField.Name("Access-Control-Allow-Methods")!]?.contains("PATCH") == true)
            #expect(preflight.headers[HTTPField.Name("Access-Control-Allow-Headers")!] == "authorization, tus-resumable, upload-length, upload-metadata")
            #expect(preflight.headers[HTTPField.Name("Access-Control-Max-Age")!] == "86400")

            let stranger = try await client.execute(uri: "/videos", method: .get, headers: [Self.origin: "https://evil.example", .authorization: "Bearer s3cret"])
            #expect(stranger.status == .ok && stranger.headers[Self.allowOrigin] == nil)
            #expect(stranger.headers[.vary]?.contains("Origin") == true)
            let refused = try await client.execute(uri: "/uploads", method: .options, headers: [
                Self.origin: "https://evil.example", Self.requestMethod: "POST"])
            #expect(refused.headers[Self.allowOrigin] == nil)

            let unauthorized = try await client.execute(uri: "/roll/1", method: .delete, headers: [Self.origin: "https://app.example.com"])
            #expect(unauthorized.status == .unauthorized && unauthorized.headers[Self.allowOrigin] == "https://app.example.com",
                    "a page reads why it was refused")
            // tus discovery (OPTIONS without Access-Control-Request-Method) still reaches tus.
            let discovery = try await client.execute(uri: "/uploads", method: .options, headers: [Self.origin: "https://app.example.com"])
            #expect(discovery.headers[HTTPField.Name("Tus-Version")!] != nil)
        }
    }
}
