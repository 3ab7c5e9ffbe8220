import FeedCore
import FeedPostgres
import FeedTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// Users A and B and the admin over each catalog: every route that reads or changes a row gives
/// a user their own, answers another's as it answers a missing one (404), and the admin everyone's.
@Suite("Ownership: users A and B, the admin")
struct OwnershipTests {
    enum Catalog: String, CaseIterable, CustomStringConvertible {
        case sqlite, postgres
        var description: String { rawValue }
    }

    /// A keyed server over `catalog` holding recordings 1 (alice's), 2 (bob's) and 3 (the
    /// server's own), a queued job and an upload of alice's.
    static func fixture(_ catalog: Catalog) async throws -> (AccessFixture, job: Int64, upload: String) {
        let f: AccessFixture
        switch catalog {
        case .sqlite:
            f = try await AccessFixture()
        case .postgres:
            let postgres = try await TestPostgres.newCatalog()
            f = try await AccessFixture { folder in
                try Roll(paths: RollPaths(home: folder.url("home")), catalog: postgres, prober: MediaRecordingProber())
            }
        }
        try await f.server.addRecordings(3, owners: ["alice", "bob", nil])
        let job = try await JobQueue(roll: f.server.roll).enqueue(.noop, owner: "alice")
        let upload = try await f.server.server.service.uploads.create(length: 10, metadata: UploadMetadata(), owner: "alice")
        return (f, job.id, upload.id)
    }

    @Test("each route with a row: A's own (its owner named), B's 404, the admin's all; lists and likes are the caller's", arguments: Catalog.allCases)
    func rows(catalog: Catalog) async throws {
        if catalog == .postgres && TestPostgres.url == nil {
            #expect(!TestPostgres.isRequired, "FEED_REQUIRE_POSTGRES is set but no cluster runs")
            return
        }
        let (f, job, upload) = try await Self.fixture(catalog)
        let alice = AccessFixture.bearer(try await f.token("alice", [.read, .upload]))
        let bob = AccessFixture.bearer(try await f.token("bob", [.read, .upload]))
        let admin = AccessFixture.bearer(AccessFixture.adminToken)
        let tus: HTTPFields = [HTTPField.Name("Tus-Resumable")!: "1.0.0"]
        try await f.server.test { (client: any TestClientProtocol) async throws -> Void in
            let status = { (path: String, method: HTTPRequest.Method, headers: HTTPFields, body: String?) async throws -> Int in
                try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }).status.code
            }
            let ids = { (path: String, key: String, headers: HTTPFields) async throws -> [Int64] in
                let response = try await client.execute(uri: path, method: .get, headers: headers)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                return (object?[key] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
            }
            // Listings.
            #expect(try await ids("/roll", "recordings", alice) == [1])
            #expect(try await ids("/roll", "recordings", bob) == [2])
            #expect(try await ids("/roll", "recordings", admin).sorted() == [1, 2, 3])
            #expect(try await ids("/jobs", "jobs", alice) == [job])
            #expect(try await ids("/jobs", "jobs", bob).isEmpty)
            #expect(try await ids("/jobs", "jobs", admin) == [job])
            // One row each: alice's is hers and the admin's; bob's and the server's are not alice's.
            for (path, method, headers) in [("/roll/1", HTTPRequest.Method.get, [:] as HTTPFields), ("/jobs/\(job)", .get, [:]),
                                             ("/uploads/\(upload)", .get, [:]), ("/uploads/\(upload)", .head, tus)] {
                var asAlice = alice, asBob = bob, asAdmin = admin
                asAlice.append(contentsOf: headers); asBob.append(contentsOf: headers); asAdmin.append(contentsOf: headers)
                #expect(try await status(path, method, asAlice, nil) == 200, "\(method) \(path) as alice")
                #expect(try await status(path, method, asBob, nil) == 404, "\(method) \(path) as bob")
                #expect(try await status(path, method, asAdmin, nil) == 200, "\(method) \(path) as admin")
            }
            // Each row says whose it is.
            let owner = { (path: String, headers: HTTPFields) async throws -> String? in
                let response = try await client.execute(uri: path, method: .get, headers: headers)
                return (try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["owner"] as? String
            }
            #expect(try await owner("/jobs/\(job)", alice) == "alice")
            #expect(try await owner("/uploads/\(upload)", alice) == "alice")
            #expect(try await owner("/roll/1", admin) == "alice")
            #expect(try await status("/roll/3", .get, alice, nil) == 404)
            #expect(try await status("/roll/2", .get, alice, nil) == 404)
            // Changes: bob's attempts on alice's rows are 404 and change nothing.
            var patch = bob
            patch.append(contentsOf: tus)
            patch[.contentType] = "application/offset+octet-stream"
            patch[HTTPField.Name("Upload-Offset")!] = "0"
            #expect(try await status("/uploads/\(upload)", .patch, patch, "0123456789") == 404)
            #expect(try await status("/uploads/\(upload)", .delete, bob + tus, nil) == 404)
            #expect(try await status("/jobs/\(job)", .delete, bob, nil) == 404)
            #expect(try await status("/roll/1", .delete, bob, nil) == 404)
            #expect(try await status("/jobs/stack", .post, bob, #"{"front":{"recording":1},"back":{"recording":2}}"#) == 404)
            #expect(try await ids("/roll", "recordings", admin).count == 3)
            #expect(try await status("/jobs/\(job)", .delete, alice, nil) == 200)
            #expect(try await status("/roll/1", .delete, alice, nil) == 204)
            #expect(try await status("/roll/2", .delete, admin, nil) == 204)
            // Likes: each user's own.
            #expect(try await status("/videos/1235/like", .put, alice, nil) == 200)
            #expect(try await ids("/likes", "videos", alice) == [1235])
            #expect(try await ids("/likes", "videos", bob).isEmpty)
            #expect(try await ids("/likes", "videos", admin).isEmpty, "the admin token's marks are the CLI's")
        }
    }
}

extension HTTPFields {
    static func + (a: HTTPFields, b: HTTPFields) -> HTTPFields {
        var out = a
        out.append(contentsOf: b)
        return out
    }
}
