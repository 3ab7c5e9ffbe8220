import Foundation
import FeedCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// The one error map: every failure leaves as RFC 9457 problem details with its kind's status,
/// whoever raised it (a FeedCore call, a route's own check, Hummingbird, a middleware).
@Suite("ErrorMiddleware")
struct ErrorMiddlewareTests {
    @Test("every kind has one status, and the CLI's exit table and the server's agree on which kinds are the caller's fault")
    func statuses() {
        for kind in FailureKind.allCases {
            let status = APIError.status(of: kind)
            let callers = [FailureKind.usage, .invalidData, .notFound, .conflict, .missingInput, .tooLarge, .unauthorized, .forbidden]
            #expect((400..<500).contains(status.code) == callers.contains(kind), "\(kind) → \(status.code)")
        }
    }

    @Test("a FeedCore failure, a route's own refusal, Hummingbird's 404 and the token check all use the frame")
    func frames() async throws {
        let f = try ServerFixture { $0.token = "s3cret" }
        let admin: HTTPFields = [.authorization: "Bearer s3cret"]
        try await f.test { client in
            let unknownVideo = try await client.execute(uri: "/videos/999999", method: .get, headers: admin)
            #expect(unknownVideo.status == .notFound && unknownVideo.error?.kind == "notFound", "\(unknownVideo.text)")
            let badLimit = try await client.execute(uri: "/roll?limit=0", method: .get, headers: admin)
            #expect(badLimit.status == .badRequest && badLimit.error?.message == "limit must be 1…1000, not 0", "\(badLimit.text)")
            let noRoute = try await client.execute(uri: "/nowhere", method: .get)
            #expect(noRoute.status == .notFound && noRoute.error?.kind == "notFound", "\(noRoute.text)")
            let noToken = try await client.execute(uri: "/roll/1", method: .delete)
            #expect(noToken.status == .unauthorized && noToken.error?.kind == "unauthorized" && noToken.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test("tus: the error's status comes from its kind (413 tooLarge, 404 unknown upload) and Tus-Resumable is on it too")
    func tus() async throws {
        let f = try ServerFixture { $0.uploadMaxSize = 1000 }
        let tus: HTTPFields = [HTTPField.Name("Tus-Resumable")!: "1.0.0", HTTPField.Name("Upload-Length")!: "1001"]
        try await f.test { client in
            let big = try await client.execute(uri: "/uploads", method: .post, headers: tus)
            #expect(big.status == .contentTooLarge && big.error?.kind == "tooLarge", "\(big.text)")
            #expect(big.headers[HTTPField.Name("Tus-Resumable")!] == "1.0.0")
            let gone = try await client.execute(uri: "/uploads/nope", method: .head, headers: [HTTPField.Name("Tus-Resumable")!: "1.0.0"])
            #expect(gone.status == .notFound && gone.headers[HTTPField.Name("Tus-Resumable")!] == "1.0.0")
            let old = try await client.execute(uri: "/uploads", method: .post, headers: [HTTPField.Name("Tus-Resumable")!: "0.2.2"])
            #expect(old.status == .preconditionFailed && old.error?.kind == "usage")
        }
    }
}
