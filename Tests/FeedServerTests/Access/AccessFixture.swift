import CryptoExtras
import FeedCore
import FeedTestSupport
import Foundation
import HTTPTypes
import JWTKit
import Synchronization
@testable import FeedServer
@testable import FeedAccess

/// A clock the access tests set: seconds since 1970.
final class TestClock: Sendable {
    private let seconds: Atomic<Int64>
    init(_ start: Int64 = 1_800_000_000) { seconds = Atomic(start) }
    var now: Int64 { seconds.load(ordering: .relaxed) }
    func advance(_ by: Int64) { seconds.add(by, ordering: .relaxed) }
}

/// An HS256 secret in a scratch file, tokens signed with it (or with another key), and a server
/// that verifies them against a clock the test drives.
struct AccessFixture {
    let folder: ScratchFolder
    let secretFile: String
    let clock = TestClock()
    let keys: AccessKeys
    let server: ServerFixture
    static let adminToken = "admin-s3cret"

    init(roll makeRoll: ((ScratchFolder) throws -> Roll)? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        folder = try ScratchFolder()
        secretFile = folder.path("secret.key")
        try Data(String(repeating: "k", count: 40).utf8 + [0x0A]).write(to: URL(fileURLWithPath: secretFile))
        let keys = try await AccessKeys.load(secretFile: secretFile, jwksFile: nil)
        self.keys = keys
        let clock = clock
        let configured: (inout ServerConfiguration) -> Void = { configuration in
            configuration.access = AccessControl(adminToken: Self.adminToken, keys: keys, linkTTL: 3600, now: { clock.now })
            // The matrix refuses hundreds of requests from one address in a second, on purpose.
            configuration.refusalRate = nil
            configure(&configuration)
        }
        if let makeRoll {
            server = try ServerFixture(folder: folder, roll: try makeRoll(folder), configure: configured)
        } else {
            server = try ServerFixture(configure: configured)
        }
    }

    /// A token for `user` with `scopes`, valid from now for an hour.
    func token(_ user: String, _ scopes: Set<Scope>, ttl: Int64 = 3600) async throws -> String {
        try await keys.mint(user: user, scopes: scopes, ttl: ttl, now: clock.now)
    }

    /// The same claims signed with a key the server does not have.
    func foreignToken(_ user: String) async throws -> String {
        let other = JWTKeyCollection()
        await other.add(hmac: HMACKey(from: String(repeating: "x", count: 40)), digestAlgorithm: .sha256)
        return try await other.sign(TokenClaims(sub: user, scope: [.admin], exp: clock.now + 3600, nbf: clock.now))
    }

    /// `Authorization: Bearer token`.
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}
