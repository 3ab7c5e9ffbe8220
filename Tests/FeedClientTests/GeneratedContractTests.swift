import Crypto
import FeedClient
import Foundation
import Testing

/// The committed client is the document's: regenerate it (scripts/openapi-client.sh) after
/// editing openapi.yaml, or this fails.
@Suite("FeedClient: generated from openapi.yaml")
struct GeneratedContractTests {
    @Test("the generated code's digest is openapi.yaml's")
    func digest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try Data(contentsOf: root.appendingPathComponent("openapi.yaml"))
        let digest = SHA256.hash(data: document).map { String(format: "%02x", $0) }.joined()
        #expect(digest == GeneratedContract.sha256, "openapi.yaml changed since Sources/FeedClient/Generated was written: run scripts/openapi-client.sh")
    }
}
