import FeedRemote
import FeedTestSupport
import Foundation
import NIOCore
import Testing

/// `--media s3://BUCKET/PREFIX` with the real `feed` and the object store `make test` starts:
/// the roll commands on SQLite, and two machines sharing PostgreSQL and the bucket, where a
/// worker with no local copy of its sources runs a stack.
@Suite("feed roll --media s3://")
struct RollObjectStoreTests {
    /// The test store's endpoint, when one runs.
    static var endpoint: String? { TestObjectStore.current?.endpoint }

    /// The store's variables, a prefix of this test's own, and a FEED_HOME.
    static func setting(_ folder: ScratchFolder, home: String = "home") -> (media: String, environment: [String: String])? {
        guard let store = TestObjectStore.current else {
            #expect(!TestObjectStore.isRequired, "FEED_REQUIRE_S3=1 but FEED_TEST_S3_ENDPOINT is not set")
            return nil
        }
        return ("s3://\(store.bucket)/\(TestObjectStore.newPrefix())",
                store.environment.merging(["FEED_HOME": folder.url(home).path]) { $1 })
    }

    @Test("roll add, list, verify, thumb and rm keep the bytes in the bucket; listings name s3:// URLs; FEED_MEDIA does as --media")
    func rollCommands() async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = Self.setting(folder) else { return }
        let clip = try TestMedia.seededClip(folder.path("a.mp4"), seed: 3, width: 64, height: 96, frames: 20, fps: 10)
        let added = try await FeedProcess.run(["roll", "add", clip, "--media", media, "--json"], environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await FeedProcess.run(["roll", "list", "--json"], environment: env.merging(["FEED_MEDIA": media]) { $1 })
        let rows = try listed.objects()
        let file = try #require(rows.first?["file"] as? String)
        #expect(rows.count == 1 && file.hasPrefix("\(media)/recordings/") && file.hasSuffix(".mp4"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("home/recordings/\(rows[0]["file_name"] as! String)")), "no local copy was kept")
        let verify = try await FeedProcess.run(["roll", "verify", "--media", media], environment: env)
        #expect(verify.status == 0 && (verify.stdout + verify.stderr).contains("no problems"), "\(verify.stdout)\(verify.stderr)")
        let thumb = try await FeedProcess.run(["roll", "thumb", "1", "--media", media], environment: env)
        let poster = try Data(contentsOf: URL(fileURLWithPath: thumb.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(thumb.status == 0 && ImageHeader.jpegSize(Array(poster)) != nil)
        #expect(try await FeedProcess.run(["roll", "rm", "1", "--media", media], environment: env).status == 0)
        #expect(try await FeedProcess.run(["roll", "list", "--json", "--media", media], environment: env).objects().isEmpty)
        #expect(try await FeedProcess.run(["roll", "verify", "--media", media], environment: env).status == 0)
    }

    @Test("verify on a bucket checks existence and size without fetching; --deep fetches and hashes; --fix records an object as it is now")
    func verifyDepth() async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = Self.setting(folder), let store = TestObjectStore.current else { return }
        let clip = try TestMedia.seededClip(folder.path("a.mp4"), seed: 5, width: 64, height: 96, frames: 10, fps: 10)
        let rows = try await FeedProcess.run(["roll", "add", clip, "--media", media, "--json"], environment: env).objects()
        let file = try #require(rows.first?["file"] as? String)
        let key = String(file.dropFirst("s3://\(store.bucket)/".count))
        let client = S3Client(configuration: S3Configuration(endpoint: URL(string: store.endpoint)!, region: store.region,
                                                             credentials: S3Credentials(accessKey: store.accessKey, secretKey: store.secretKey), pathStyle: true),
                              bucket: store.bucket)
        var bytes = try await client.get(key)
        bytes.setInteger(bytes.getInteger(at: 100, as: UInt8.self)! ^ 0xFF, at: 100)  // the same size, another byte
        try await client.put(key, body: bytes)
        func verify(_ extra: [String]) async throws -> FeedRun {
            try await FeedProcess.run(["roll", "verify", "--media", media] + extra, environment: env)
        }
        #expect(try await verify([]).status == 0, "size and existence only")
        let deep = try await verify(["--deep"])
        #expect(deep.status == 1 && deep.stdout.contains("problem: recording 1: \(rows[0]["file_name"] as! String) changed (sha256"), "\(deep.stdout)")
        var longer = bytes
        longer.writeBytes([UInt8](repeating: 0, count: 10))  // after the last box: still a video
        try await client.put(key, body: longer)
        let grown = try await verify([])
        #expect(grown.status == 1 && grown.stdout.contains("changed (\(bytes.readableBytes + 10) bytes, expected \(bytes.readableBytes))"), "\(grown.stdout)")
        let fixed = try await verify(["--fix"])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(try await verify(["--deep"]).status == 0)

        // A store that does not answer is an error, not a roll of missing files: --fix drops no row.
        let down = try await FeedProcess.run(["roll", "verify", "--fix", "--media", media],
                                             environment: env.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:9"]) { $1 })
        #expect(down.status == 70 && down.stderr.contains("cannot reach the object store"), "\(down.stdout)\(down.stderr)")
        #expect(try await FeedProcess.run(["roll", "list", "--json", "--media", media], environment: env).objects().count == 1)
    }

    @Test("roll migrate copies a folder's recordings to a bucket, checking each sha256; resumes; refuses bytes that are not the row's; and back")
    func migrate() async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = Self.setting(folder) else { return }
        let clips = try (1...3).map { try TestMedia.seededClip(folder.path("c\($0).mp4"), seed: $0, width: 64, height: 96, frames: 10, fps: 10) }
        #expect(try await FeedProcess.run(["roll", "add"] + clips, environment: env).status == 0)
        let rows = try await FeedProcess.run(["roll", "list", "--json"], environment: env).objects()
        let names = rows.sorted { ($0["id"] as! Int) < ($1["id"] as! Int) }.map { $0["file_name"] as! String }
        // Recording 2's bytes changed on disk (same size): it must not reach the bucket.
        let second = URL(fileURLWithPath: folder.path("home/recordings/\(names[1])"))
        var bytes = try Data(contentsOf: second)
        bytes[200] ^= 0xFF
        try bytes.write(to: second)
        let first = try await FeedProcess.run(["roll", "migrate", "--to", media], environment: env)
        #expect(first.status == 1 && first.lines.count == 3, "\(first.stdout)\(first.stderr)")
        #expect(first.lines[0].hasPrefix("copied 1 \(names[0])") && first.lines[2].hasPrefix("copied 3 \(names[2])"))
        #expect(first.lines[1].hasPrefix("failed 2 \(names[1]): ") && first.lines[1].contains("its bytes are not the recording's"))
        #expect(first.stderr.contains("3 recordings: 2 copied, 0 already there, 1 failed"))
        bytes[200] ^= 0xFF
        try bytes.write(to: second)
        let again = try await FeedProcess.run(["roll", "migrate", "--to", media], environment: env)
        #expect(again.status == 0 && again.lines == ["already there 1 \(names[0])", "copied 2 \(names[1]) (\(bytes.count) bytes)", "already there 3 \(names[2])"],
                "\(again.stdout)\(again.stderr)")
        let deep = try await FeedProcess.run(["roll", "verify", "--deep", "--media", media], environment: env)
        #expect(deep.status == 0, "\(deep.stdout)\(deep.stderr)")

        // Back: the folder lost its files; the bucket's copies come home, checked the same way.
        for name in names { try FileManager.default.removeItem(atPath: folder.path("home/recordings/\(name)")) }
        let home = try await FeedProcess.run(["roll", "migrate", "--media", media, "--to", folder.path("home")], environment: env)
        #expect(home.status == 0 && home.lines.allSatisfy { $0.hasPrefix("copied ") } && home.lines.count == 3, "\(home.stdout)\(home.stderr)")
        #expect(try await FeedProcess.run(["roll", "verify"], environment: env).status == 0)
    }

    @Test("a wrong secret exits 77 in one line without it; a missing bucket 70; a bucket name S3 refuses and missing keys 64")
    func refusals() async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = Self.setting(folder), let store = TestObjectStore.current else { return }
        let clip = try TestMedia.seededClip(folder.path("a.mp4"), seed: 4, width: 64, height: 96, frames: 10, fps: 10)
        let wrong = try await FeedProcess.run(["roll", "add", clip, "--media", media], environment: env.merging(["AWS_SECRET_ACCESS_KEY": "not-the-secret-42"]) { $1 })
        #expect(wrong.status == 77 && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("SignatureDoesNotMatch") && wrong.stderr.contains(store.accessKey) && !wrong.stderr.contains("not-the-secret"))
        let missing = try await FeedProcess.run(["roll", "add", clip, "--media", "s3://feed-no-such-bucket/x"], environment: env)
        #expect(missing.status == 70 && missing.stderr.contains("s3://feed-no-such-bucket: no such bucket at \(store.endpoint)"), "\(missing.stderr)")
        let badName = try await FeedProcess.run(["roll", "list", "--media", "s3://Feed_Media"], environment: env)
        #expect(badName.status == 64 && badName.stderr.contains("not a bucket S3 takes"), "\(badName.stderr)")
        var noKeys = env
        noKeys["AWS_ACCESS_KEY_ID"] = nil
        let keyless = try await FeedProcess.run(["roll", "list", "--media", media], environment: noKeys)
        #expect(keyless.status == 64 && keyless.stderr.contains("AWS_ACCESS_KEY_ID"), "\(keyless.stderr)")
        #expect(try await FeedProcess.run(["roll", "list", "--json"], environment: env).objects().isEmpty, "nothing was added")
    }

    @Test("two machines on PostgreSQL and one bucket: a worker with no local copy of its sources stacks what the other added; both read the result",
          .enabled(if: TestPostgres.url != nil))
    func worker() async throws {
        let shared = try await SharedCatalog()
        guard let (media, storeEnv) = Self.setting(shared.folder, home: "machine-a") else { return }
        let a = shared.environment.merging(storeEnv) { $1 }.merging(["FEED_MEDIA": media]) { $1 }
        let b = a.merging(["FEED_HOME": shared.folder.url("machine-b").path]) { $1 }
        let front = try TestMedia.seededClip(shared.folder.path("front.mp4"), seed: 1, width: 64, height: 96, frames: 20, fps: 10)
        let back = try TestMedia.seededClip(shared.folder.path("back.mp4"), seed: 2, width: 64, height: 96, frames: 20, fps: 10)
        #expect(try await FeedProcess.run(["roll", "add", front, back], environment: a).status == 0)
        #expect(try await FeedProcess.run(["jobs", "add", "stack", #"{"front":{"recording":1},"back":{"recording":2},"title":"pair"}"#], environment: a).status == 0)
        let worker = try WorkerProcess([], environment: b, log: shared.folder.url("worker.log"))
        var jobs: [[String: Any]] = []
        try await waitUntil(timeout: 90, every: 0.3) {
            jobs = try await FeedProcess.run(["jobs", "--json"], environment: a, limited: false).objects()
            return jobs.first.map { ["done", "failed"].contains($0["state"] as? String) } ?? false
        }
        #expect(await worker.stop() == 0, "\(worker.stderr)")
        #expect(jobs.first?["state"] as? String == "done", "\(jobs) \(worker.stderr)")
        let rows = try await FeedProcess.run(["roll", "list", "--json"], environment: a).objects()
        #expect(rows.count == 3 && rows.allSatisfy { ($0["file"] as? String)?.hasPrefix(media + "/recordings/") == true }, "\(rows)")
        #expect(rows.first?["title"] as? String == "pair")
        // Machine A never had the stack's bytes: verify fetches and checks them.
        let verify = try await FeedProcess.run(["roll", "verify"], environment: a)
        #expect(verify.status == 0 && (verify.stdout + verify.stderr).contains("checked 3 recordings: no problems"), "\(verify.stdout)\(verify.stderr)")
    }
}
