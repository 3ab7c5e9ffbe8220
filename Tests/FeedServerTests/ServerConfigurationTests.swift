import FeedCore
import FeedTestSupport
import Foundation
import Testing
@testable import FeedServer

/// The server's own rules live in its configuration, so FeedServer as a library keeps them too,
/// not only `feed serve`.
@Suite("ServerConfiguration")
struct ServerConfigurationTests {
    @Test("an open server (no key, no token) stays on loopback; a token lets it bind anywhere")
    func openStaysOnLoopback() throws {
        var configuration = ServerConfiguration()
        try configuration.validate()
        configuration.host = "0.0.0.0"
        #expect(throws: ServerConfigurationError.openOffLoopback(host: "0.0.0.0")) { try configuration.validate() }
        configuration.token = "s3cret"
        try configuration.validate()
    }

    @Test("CORS: any origin by default only on an open loopback server; * never with a key or a token")
    func corsDefault() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.allowedOrigins == ["*"])
        configuration.token = "s3cret"
        #expect(configuration.allowedOrigins == [])
        configuration.corsOrigins = ["*"]
        #expect(throws: ServerConfigurationError.anyOriginWithKey) { try configuration.validate() }
        configuration.corsOrigins = ["https://app.example.com", "app.example.com"]
        #expect(throws: ServerConfigurationError.badOrigin("app.example.com")) { try configuration.validate() }
        configuration.corsOrigins = ["https://app.example.com"]
        try configuration.validate()
        #expect(configuration.allowedOrigins == ["https://app.example.com"])
    }

    @Test("settings out of range are refused by name")
    func ranges() {
        var cases: [(ServerConfiguration, String)] = []
        var c = ServerConfiguration(); c.port = 70000; cases.append((c, "--port must be 0…65535, not 70000"))
        c = ServerConfiguration(); c.jobs = 17; cases.append((c, "--jobs must be 0…16, not 17"))
        c = ServerConfiguration(); c.rate = .nan; cases.append((c, "--rate must be"))
        c = ServerConfiguration(); c.uploadExpiry = 0; cases.append((c, "--upload-expiry must be 1…1000000000 seconds, not 0"))
        for (configuration, words) in cases {
            #expect { try configuration.validate() } throws: { ($0 as? ServerConfigurationError)?.description.hasPrefix(words) == true }
        }
    }

    @Test("FeedServer.run refuses an open server off loopback before it listens")
    func runRefuses() async throws {
        let f = try ServerFixture { $0.host = "0.0.0.0" }
        await #expect(throws: ServerConfigurationError.openOffLoopback(host: "0.0.0.0")) {
            try await f.server.run { _, _ in Issue.record("it listened") }
        }
    }
}
