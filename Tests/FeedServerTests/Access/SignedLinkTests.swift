import FeedCore
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing
@testable import FeedServer
@testable import FeedAccess

/// Signed playback links in process, against the test's clock: what a link opens and what it
/// does not. (FeedCLITests' ServeAccessTests plays them with ffmpeg and Chromium.)
@Suite("Signed links")
struct SignedLinkTests {
    /// The `url` of recording 1 in `GET /roll`, as the admin reads it.
    static func link(_ client: some TestClientProtocol, field: String = "url") async throws -> String {
        let page = try await client.execute(uri: "/roll", method: .get, headers: AccessFixture.bearer(AccessFixture.adminToken))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: page.body)) as? [String: Any])
        let recordings = try #require(object["recordings"] as? [[String: Any]])
        let url = try #require(recordings.last?[field] as? String)
        let start = try #require(url.range(of: "/media") ?? url.range(of: "/roll"))
        return String(url[start.lowerBound...])
    }

    @Test("a link opens its one path with no header until exp; later, changed, moved to another id or used on a JSON route: 403 or 401")
    func link() async throws {
        let f = try await AccessFixture()
        try await f.server.addRecordings(2)
        try await f.server.test { client in
            let link = try await Self.link(client)
            #expect(link.hasPrefix("/media/roll/1?exp=") && link.contains("&sig="), "\(link)")
            // The row has no file: past the access check, the route's own 404.
            let opened = try await client.execute(uri: link, method: .get)
            #expect(opened.status == .notFound, "\(opened.status) \(opened.text)")
            #expect(try await client.execute(uri: link, method: .head).status == .notFound)

            let moved = link.replacingOccurrences(of: "/media/roll/1?", with: "/media/roll/2?")
            let other = try await client.execute(uri: moved, method: .get)
            #expect(other.status == .forbidden && other.error?.message.contains("signature does not match") == true, "\(other.text)")
            let exp = try #require(link.split(separator: "exp=").last?.prefix { $0.isNumber })
            let later = link.replacingOccurrences(of: "exp=\(exp)", with: "exp=\(Int64(exp)! + 60)")
            #expect(try await client.execute(uri: later, method: .get).status == .forbidden)
            let flipped = String(link.dropLast()) + (link.last == "A" ? "B" : "A")
            #expect(try await client.execute(uri: flipped, method: .get).status == .forbidden)
            #expect(try await client.execute(uri: "/media/roll/1?sig=abc", method: .get).error?.message.contains("needs exp") == true)
            let json = link.replacingOccurrences(of: "/media/roll/1?", with: "/roll/1?")
            #expect(try await client.execute(uri: json, method: .get).status == .unauthorized, "a link opens media only")

            f.clock.advance(Int64(exp)! - f.clock.now)
            let expired = try await client.execute(uri: link, method: .get)
            #expect(expired.status == .forbidden && expired.error?.message.contains("expired at") == true, "\(expired.text)")
        }
    }

    @Test("with a JWKS alone, each start signs with a key of its own; --link-secret-file's key is every server's, and outlives a restart")
    func sharedLinkKey() async throws {
        let folder = try ScratchFolder()
        let key = ES256PrivateKey(), parameters = try #require(key.parameters)
        let jwks = folder.path("jwks.json")
        try Data(#"{"keys":[{"kty":"EC","crv":"P-256","kid":"k","alg":"ES256","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: jwks))
        let keys = try await AccessKeys.load(secretFile: nil, jwksFile: jwks)
        let secret = Array("a link secret of 32 bytes or more".utf8)
        let made = AccessControl(keys: keys, linkSecret: secret), restarted = AccessControl(keys: keys, linkSecret: secret)
        let random = AccessControl(keys: keys), another = AccessControl(keys: keys)
        let link = try #require(made.links).signature(path: "/media/roll/1", expires: 2_000_000_000)
        #expect(try #require(restarted.links).verify(path: "/media/roll/1", expires: 2_000_000_000, sig: link))
        #expect(made.linksAreShared && !random.linksAreShared)
        let own = try #require(random.links).signature(path: "/media/roll/1", expires: 2_000_000_000)
        #expect(try #require(another.links).verify(path: "/media/roll/1", expires: 2_000_000_000, sig: own) == false)
        #expect(own != link)
    }

    @Test("links live --link-ttl, rounded up to the minute, and a response's links share one expiry")
    func expiry() async throws {
        let f = try await AccessFixture()
        try await f.server.addRecordings(1)
        try await f.server.test { client in
            let url = try await Self.link(client), poster = try await Self.link(client, field: "poster_url"), hls = try await Self.link(client, field: "hls_url")
            let exp = Int64(try #require(url.split(separator: "exp=").last?.prefix { $0.isNumber }))!
            #expect(exp >= f.clock.now + 3600 && exp < f.clock.now + 3660 && exp % 60 == 0)
            #expect(poster.hasPrefix("/media/roll/1/thumb.jpg?exp=\(exp)&sig=") && hls.hasPrefix("/roll/1/hls/master.m3u8?exp=\(exp)&sig="), "\(poster) \(hls)")
        }
    }

    @Test("the feed's local clips and posters are signed links in /videos")
    func feedLinks() async throws {
        let f = try await AccessFixture()
        let open = try ServerFixture()
        let signer = LinkSigner(secret: nil, ttl: 60)
        #expect(signer.sign("/a", expires: 60).hasPrefix("/a?exp=60&sig="))
        #expect(signer.sign("/a?x=1", expires: 60).hasPrefix("/a?x=1&exp=60&sig="))
        // The demo feed's clips are URLs elsewhere: they stay as they are, signed or not.
        let plain = try await open.test { try await $0.execute(uri: "/videos", method: .get).text }
        let signed = try await f.server.test { try await $0.execute(uri: "/videos", method: .get, headers: AccessFixture.bearer(AccessFixture.adminToken)).text }
        #expect(plain == signed)
    }
}
