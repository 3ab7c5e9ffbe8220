import Testing
@testable import FeedCore

/// The one rule for endpoints (`POST /webhooks`, `--webhook`, a delivery job) and the signature.
@Suite("Webhook endpoints and signatures")
struct WebhookEndpointTests {
    @Test("URLs as openapi.yaml's pattern says: http(s), a host, a port of up to 5 digits, a printable path", arguments: [
        ("http://127.0.0.1:41499/hooks", true), ("https://hooks.example.com/feed?x=1", true), ("http://a", true),
        ("HTTP://a", false), ("ftp://a/", false), ("http://", false), ("http://a:123456/", false), ("http://a b/", false),
        ("http://a/é", false), ("http://a:/", false),
    ])
    func urls(url: String, valid: Bool) {
        #expect(WebhookEndpoint.isEndpoint(url) == valid)
    }

    @Test("a port no connection can have (0, above 65535) is refused: the HTTP client would stop the process on it")
    func ports() {
        let secret = String(repeating: "s", count: 16)
        #expect(WebhookEndpoint.problem(url: "http://127.0.0.1:99999/x", secret: secret) == "url's port must be 1…65535 (no leading zero), not 99999")
        #expect(WebhookEndpoint.problem(url: "http://hooks.example:70000", secret: secret) == "url's port must be 1…65535 (no leading zero), not 70000")
        #expect(WebhookEndpoint.problem(url: "http://a:0/", secret: secret) == "url's port must be 1…65535 (no leading zero), not 0")
        #expect(WebhookEndpoint.problem(url: "https://-:00000", secret: secret) == "url's port must be 1…65535 (no leading zero), not 00000")
        #expect(WebhookEndpoint.problem(url: "http://a:080/", secret: secret) != nil)
        #expect(WebhookEndpoint.problem(url: "https://a:65535/p:1", secret: secret) == nil)
        #expect(WebhookEndpoint.port(of: "http://a/x:99999") == nil)
    }

    @Test("secrets: 16 bytes at least, no control characters")
    func secrets() {
        #expect(WebhookEndpoint.problem(url: "http://a/", secret: String(repeating: "s", count: 16)) == nil)
        #expect(WebhookEndpoint.problem(url: "http://a/", secret: "short")?.hasPrefix("secret must be") == true)
        #expect(WebhookEndpoint.problem(url: "http://a/", secret: String(repeating: "s", count: 16) + "\u{0}") == "secret holds control characters")
    }

    @Test("Feed-Signature is t=UNIX,v1=HMAC-SHA256 hex of \"UNIX.\" + body (the value Python's hmac gives)")
    func signature() {
        let header = WebhookSignature.header(secret: "0123456789abcdef", time: 1_700_000_000, body: Array(#"{"id":"evt_1"}"#.utf8))
        #expect(header == "t=1700000000,v1=9483985a1de97b8e9342f2306f8e68512fdf9176cc65f2595ea38e056d78bfdd")
    }
}
