import AsyncHTTPClient
import FeedCore
import FeedTestSupport
import Foundation
import NIOCore
import Testing
@testable import FeedRemote

/// S3Client against the real store `make test` starts (scripts/with-s3.sh: SeaweedFS), each
/// test under a prefix of its own; and against that store behind `Scripts/s3_fault_proxy.py`
/// (503 SlowDown, silence). Skipped without a store unless `FEED_REQUIRE_S3=1`.
@Suite("S3Client")
struct S3ClientTests {
    static let store = TestObjectStore.current

    /// A client of the test store, or nil (recorded as a failure when the store is required).
    static func client(endpoint: String? = nil, secretKey: String? = nil, accessKey: String? = nil, bucket: String? = nil,
                       timeout: Duration = S3Configuration.defaultTimeout, attempts: Int = S3Configuration.defaultAttempts) -> S3Client? {
        guard let store else {
            #expect(!TestObjectStore.isRequired, "FEED_REQUIRE_S3=1 but FEED_TEST_S3_ENDPOINT is not set")
            return nil
        }
        let configuration = S3Configuration(endpoint: URL(string: endpoint ?? store.endpoint)!, region: store.region,
                                            credentials: S3Credentials(accessKey: accessKey ?? store.accessKey, secretKey: secretKey ?? store.secretKey),
                                            pathStyle: true, timeout: timeout, attempts: attempts)
        return S3Client(configuration: configuration, bucket: bucket ?? store.bucket)
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> ByteBuffer {
        var bytes = [UInt8](repeating: 0, count: count)
        var value = seed
        for index in bytes.indices { value = value &* 31 &+ 17; bytes[index] = value }
        return ByteBuffer(bytes: bytes)
    }

    @Test("make test runs the object store tests: a missing store fails rather than skips")
    func storePresent() {
        #expect(!TestObjectStore.isRequired || Self.store != nil, "FEED_REQUIRE_S3=1 but FEED_TEST_S3_ENDPOINT is not set")
    }

    @Test("put, get whole and by range, head, copy, list by prefix, delete; keys with spaces, + and UTF-8 as they are")
    func objects() async throws {
        guard let client = Self.client() else { return }
        let prefix = TestObjectStore.newPrefix()
        let body = Self.bytes(100_000)
        let key = "\(prefix)/a b+c/ü €.mp4"
        let etag = try await client.put(key, body: body, contentType: "video/mp4")
        #expect(etag.count == 32, "a single PUT's entity tag is its MD5")
        #expect(try await client.get(key) == body)
        let range = try await client.get(key, range: 5..<10)
        #expect(range == body.getSlice(at: 5, length: 5))
        let head = try #require(try await client.head(key))
        #expect(head.size == 100_000 && head.etag == etag && head.lastModified != nil)
        #expect(try await client.head("\(prefix)/missing") == nil)
        await #expect(throws: S3Error.noSuchKey(target: client.target("\(prefix)/missing"))) { try await client.get("\(prefix)/missing") }

        try await client.copy(key, to: "\(prefix)/copy.mp4")
        #expect(try await client.get("\(prefix)/copy.mp4") == body)
        try await client.put("\(prefix)/z", body: ByteBuffer(string: "z"))
        let listed = try await client.list(prefix: "\(prefix)/")
        #expect(listed.map(\.key) == ["\(prefix)/a b+c/ü €.mp4", "\(prefix)/copy.mp4", "\(prefix)/z"])
        #expect(listed.map(\.size) == [100_000, 100_000, 1])
        #expect(try await client.list(prefix: "\(prefix)/a b").map(\.key) == [key])

        try await client.delete(key)
        try await client.delete(key)  // already gone: fine
        #expect(try await client.head(key) == nil)
        for object in try await client.list(prefix: "\(prefix)/") { try await client.delete(object.key) }
        #expect(try await client.list(prefix: "\(prefix)/").isEmpty)
    }

    @Test("a multipart upload: parts listed while open, joined in order on completion, its upload gone; an aborted one leaves nothing")
    func multipart() async throws {
        guard let client = Self.client() else { return }
        let prefix = TestObjectStore.newPrefix()
        let key = "\(prefix)/joined.mp4"
        let first = Self.bytes(S3Client.minimumPartSize, seed: 1), second = Self.bytes(1_000, seed: 2)
        let id = try await client.createMultipartUpload(key, contentType: "video/mp4")
        let one = try await client.uploadPart(key, uploadID: id, number: 1, body: first)
        let two = try await client.uploadPart(key, uploadID: id, number: 2, body: second)
        let listed = try await client.listParts(key, uploadID: id)
        #expect(listed == [one, two])
        #expect(listed?.allSatisfy { $0.modified.map { abs($0.timeIntervalSinceNow) < 600 } ?? false } == true,
                "each listed part says when it came")
        #expect(try await client.listMultipartUploads(prefix: prefix).map(\.uploadID) == [id])
        #expect(try await client.head(key) == nil, "nothing is at the key before completion")
        try await client.completeMultipartUpload(key, uploadID: id, parts: [two, one])
        var whole = first
        var rest = second
        whole.writeBuffer(&rest)
        #expect(try await client.get(key, limit: 8 << 20) == whole)
        #expect(try await client.listMultipartUploads(prefix: prefix).isEmpty)

        let dropped = try await client.createMultipartUpload("\(prefix)/dropped")
        _ = try await client.uploadPart("\(prefix)/dropped", uploadID: dropped, number: 1, body: second)
        try await client.abortMultipartUpload("\(prefix)/dropped", uploadID: dropped)
        #expect(try await client.listMultipartUploads(prefix: prefix).isEmpty)
        #expect(try await client.listParts("\(prefix)/dropped", uploadID: dropped) == nil)
        #expect(try await client.head("\(prefix)/dropped") == nil)
        try await client.delete(key)
    }

    @Test("a copy over the single-copy limit goes as a multipart upload of copied ranges, no byte through the client")
    func largeCopy() async throws {
        guard let client = Self.client() else { return }
        let prefix = TestObjectStore.newPrefix()
        let body = Self.bytes(12_000_000, seed: 5)
        try await client.put("\(prefix)/big", body: body)
        try await client.copy("\(prefix)/big", to: "\(prefix)/copy", size: 12_000_000, singleLimit: 1 << 20, partSize: Int64(S3Client.minimumPartSize))
        #expect(try await client.get("\(prefix)/copy", limit: 16 << 20) == body)
        #expect(try await client.head("\(prefix)/copy")?.etag.hasSuffix("-3") == true, "three copied parts")
        #expect(try await client.listMultipartUploads(prefix: prefix).isEmpty)
        for key in ["big", "copy"] { try await client.delete("\(prefix)/\(key)") }
    }

    @Test("a presigned URL reads the object without keys; one past its expiry, or with its signature changed, is refused")
    func presigned() async throws {
        guard let client = Self.client() else { return }
        let key = "\(TestObjectStore.newPrefix())/clip one.mp4"
        try await client.put(key, body: ByteBuffer(string: "presigned bytes"))
        let url = client.presignedURL(key, expires: 60)
        #expect(url.absoluteString.contains("X-Amz-Signature=") && !url.absoluteString.contains(Self.store!.secretKey))
        let fetched = try await Self.fetch(url)
        #expect(fetched.status == 200 && fetched.body == "presigned bytes")
        let old = client.presignedURL(key, expires: 60, at: Date().addingTimeInterval(-3600))
        #expect(try await Self.fetch(old).status == 403)
        var changed = url.absoluteString
        changed.replaceSubrange(changed.index(before: changed.endIndex)..., with: changed.hasSuffix("0") ? "1" : "0")
        #expect(try await Self.fetch(URL(string: changed)!).status == 403)
        try await client.delete(key)
    }

    static func fetch(_ url: URL) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    @Test("wrong keys and a missing bucket: one line each, naming the access key but never the secret, and the kind the CLI exits 77 or 70 for")
    func refusals() async throws {
        guard let store = Self.store, let wrongSecret = Self.client(secretKey: "not-the-secret-0123456789"),
              let unknownKey = Self.client(accessKey: "AKIDFEEDUNKNOWN"), let noBucket = Self.client(bucket: "feed-no-such-bucket") else { return }
        let key = "\(TestObjectStore.newPrefix())/x"
        do {
            try await wrongSecret.put(key, body: ByteBuffer(string: "x"))
            Issue.record("a wrong secret was accepted")
        } catch {
            #expect(error == .denied(target: wrongSecret.target(key), code: "SignatureDoesNotMatch", accessKey: store.accessKey))
            #expect(error.kind == .unauthorized && !error.description.contains("not-the-secret"))
            #expect(error.description.contains("AWS_SECRET_ACCESS_KEY"))
        }
        do {
            _ = try await unknownKey.head(key)
            Issue.record("an unknown access key was accepted")
        } catch {
            #expect(error.kind == .unauthorized || error.kind == .forbidden, "\(error)")
            #expect(error.description.contains("AKIDFEEDUNKNOWN"))
        }
        do {
            _ = try await noBucket.list(prefix: "")
            Issue.record("a missing bucket was listed")
        } catch {
            #expect(error == .noSuchBucket(bucket: "feed-no-such-bucket", endpoint: store.endpoint))
            #expect(error.kind == .unavailable)
        }
    }

    @Test("503 SlowDown is retried with backoff until the store takes the request; past the attempts it is said in words")
    func slowDown() async throws {
        guard let store = Self.store else { _ = Self.client(); return }
        let folder = try ScratchFolder()
        let log = folder.url("log")
        let proxy = try await PortScript("s3_fault_proxy.py", [store.endpoint, log.path, "--slowdown", "3"])
        let client = try #require(Self.client(endpoint: proxy.base, attempts: 5))
        let key = "\(TestObjectStore.newPrefix())/slow"
        try await client.put(key, body: ByteBuffer(string: "after three 503s"))
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 && lines.prefix(3).allSatisfy { $0.hasSuffix(" 503") } && lines[3].hasSuffix(" 200"), "\(lines)")
        #expect(try await client.get(key).readableBytes == 16)

        let stubborn = try await PortScript("s3_fault_proxy.py", [store.endpoint, log.path, "--slowdown", "100"])
        let giving = try #require(Self.client(endpoint: stubborn.base, attempts: 2))
        await #expect(throws: S3Error.busy(target: giving.target(key), operation: "read", attempts: 2, last: "HTTP 503 SlowDown")) {
            try await giving.get(key)
        }
        try await Self.client()?.delete(key)
    }

    @Test("a store that goes silent is given up on after the timeout, in words; one nobody listens at is unreachable after the connect timeout, not once per attempt")
    func silentAndAbsent() async throws {
        guard let store = Self.store else { _ = Self.client(); return }
        let folder = try ScratchFolder()
        let proxy = try await PortScript("s3_fault_proxy.py", [store.endpoint, folder.url("log").path, "--stall"])
        let client = try #require(Self.client(endpoint: proxy.base, timeout: .seconds(1), attempts: 1))
        await #expect(throws: S3Error.timedOut(target: client.target("k"), operation: "read", seconds: 1)) { try await client.get("k") }
        proxy.stop()

        let closed = try #require(Self.client(endpoint: "http://127.0.0.1:9", attempts: 5))
        do {
            _ = try await closed.head("k")
            Issue.record("a closed port answered")
        } catch {
            guard case let .unreachable(endpoint, reason) = error else { Issue.record("\(error)"); return }
            #expect(endpoint == "http://127.0.0.1:9" && reason.contains("connection refused"))
            #expect(error.kind == .unavailable)
        }
    }
}
