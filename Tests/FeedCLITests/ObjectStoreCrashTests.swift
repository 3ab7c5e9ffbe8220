import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// kill -9 at every step of putting a recording into a bucket and of publishing a ladder there
/// (FEED_ROLL_CRASH_AT makes `feed` SIGKILL itself at the step): no row without its object, no
/// playlist naming a missing object, and once `verify --fix` has run, no multipart upload left.
@Suite("kill -9 with media in a bucket")
struct ObjectStoreCrashTests {
    static func client() -> S3Client? {
        guard let store = TestObjectStore.current else { return nil }
        return S3Client(configuration: S3Configuration(endpoint: URL(string: store.endpoint)!, region: store.region,
                                                       credentials: S3Credentials(accessKey: store.accessKey, secretKey: store.secretKey),
                                                       pathStyle: true), bucket: store.bucket)
    }

    @Test("roll add killed with its parts uploaded, or with its object complete and no row: verify names it, --fix repairs it, nothing is left open",
          arguments: [("add.staged", "leftover partial copy", 0), ("add.renamed", "orphan file", 1)])
    func add(point: String, named: String, rowsAfterFix: Int) async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = RollObjectStoreTests.setting(folder), let client = Self.client() else { return }
        let prefix = String(media.dropFirst("s3://\(client.bucket)/".count))
        let clip = try TestMedia.seededClip(folder.path("a.mp4"), seed: 8, width: 64, height: 96, frames: 10, fps: 10)
        let crashed = try await FeedProcess.run(["roll", "add", clip, "--media", media], environment: env.merging(["FEED_ROLL_CRASH_AT": point]) { $1 })
        #expect(crashed.status == SIGKILL, "\(crashed.stderr)")
        #expect(try await FeedProcess.run(["roll", "list", "--json", "--media", media], environment: env).objects().isEmpty)
        #expect(try await client.listMultipartUploads(prefix: prefix).count == (point == "add.staged" ? 1 : 0))
        let verify = try await FeedProcess.run(["roll", "verify", "--media", media], environment: env)
        #expect(verify.status == 1 && verify.stdout.contains(named), "\(verify.stdout)")
        let fix = try await FeedProcess.run(["roll", "verify", "--fix", "--media", media], environment: env)
        #expect(fix.status == 0 && fix.stdout.contains("fixed: "), "\(fix.stdout)\(fix.stderr)")
        #expect(try await FeedProcess.run(["roll", "verify", "--media", media], environment: env).status == 0)
        #expect(try await FeedProcess.run(["roll", "list", "--json", "--media", media], environment: env).objects().count == rowsAfterFix)
        #expect(try await client.listMultipartUploads(prefix: prefix).isEmpty)
        #expect(try await client.list(prefix: prefix + "/recordings/").count == rowsAfterFix)
    }

    @Test("roll hls killed after the segments, or after the playlists before the marker: no reader finds the ladder, every playlist in the bucket names objects that are there, and the next run publishes it",
          arguments: ["publish.members", "publish.playlists"])
    func ladder(point: String) async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = RollObjectStoreTests.setting(folder), let client = Self.client() else { return }
        let prefix = String(media.dropFirst("s3://\(client.bucket)/".count))
        let clip = try TestMedia.seededClip(folder.path("a.mp4"), seed: 9, width: 64, height: 96, frames: 60, fps: 10)
        #expect(try await FeedProcess.run(["roll", "add", clip, "--media", media], environment: env).status == 0)
        let options = ["--ladder", "96", "--segment", "2"]
        let crashed = try await FeedProcess.run(["roll", "hls", "1", "--media", media] + options, environment: env.merging(["FEED_ROLL_CRASH_AT": point]) { $1 })
        #expect(crashed.status == SIGKILL, "\(crashed.stderr)")
        let objects = Set(try await client.list(prefix: prefix + "/ladders/").map(\.key))
        #expect(!objects.isEmpty && !objects.contains { $0.hasSuffix("/.published") })
        #expect(objects.contains { $0.hasSuffix(".m3u8") } == (point == "publish.playlists"))
        for playlist in objects where playlist.hasSuffix(".m3u8") {
            let text = String(buffer: try await client.get(playlist))
            let folderKey = playlist.split(separator: "/").dropLast().joined(separator: "/")
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
                #expect(objects.contains("\(folderKey)/\(line)"), "\(playlist) names \(line), which is not in the bucket")
            }
            for uri in text.split(separator: "\"").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) where uri.hasSuffix(".mp4") || uri.hasSuffix(".m4s") || uri.hasSuffix(".m3u8") {
                #expect(objects.contains("\(folderKey)/\(uri)"), "\(playlist) names \(uri), which is not in the bucket")
            }
        }
        let again = try await FeedProcess.run(["roll", "hls", "1", "--media", media] + options, environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await client.list(prefix: prefix + "/ladders/").contains { $0.key.hasSuffix("/.published") })
        let fix = try await FeedProcess.run(["roll", "verify", "--fix", "--media", media], environment: env)
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(try await FeedProcess.run(["roll", "verify", "--media", media], environment: env).status == 0)
    }
}
