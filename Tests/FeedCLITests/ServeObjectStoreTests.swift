import FeedTestSupport
import Foundation
import Testing

/// `feed serve --media s3://…` on PostgreSQL, two servers sharing the catalog and the bucket
/// (each with a home of its own, as two machines): a tus upload begun on one and finished on the
/// other, the recording answered with a redirect to the bucket or proxied with ranges.
@Suite("feed serve --media s3://", .enabled(if: TestPostgres.url != nil))
struct ServeObjectStoreTests {
    /// The bucket's URL and the variables for servers on `shared`'s catalog and the test store,
    /// with no FEED_HOME: each server has its own, as on two machines.
    static func setting(_ shared: SharedCatalog) -> (media: String, environment: [String: String])? {
        guard let (media, storeEnv) = RollObjectStoreTests.setting(shared.folder) else { return nil }
        var env = shared.environment.merging(storeEnv) { $1 }
        env["FEED_MEDIA"] = media
        env["FEED_HOME"] = nil
        return (media, env)
    }

    @Test("an upload started on one server resumes on the other at the same offset; recordings are redirected to presigned URLs or proxied with ranges")
    func twoServers() async throws {
        let shared = try await SharedCatalog()
        guard let (media, env) = Self.setting(shared) else { return }
        // Smaller than a part: its bytes travel as the upload's tail (S3MediaStoreTests.upload
        // takes one across machines through whole parts).
        let clip = try TestMedia.seededClip(shared.folder.path("clip.mp4"), seed: 7, width: 320, height: 480, frames: 90, fps: 30)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let redirecting = try await ServeProcess(["--jobs", "0"], environment: env)
        let proxying = try await ServeProcess(["--jobs", "0", "--media-serve", "proxy"], environment: env)

        let upload = try await ServeUploadTests.create(redirecting, length: bytes.count, filename: "clip.mp4")
        let half = bytes.count / 2
        #expect(try await ServeUploadTests.patch(redirecting, upload, bytes.prefix(half), offset: 0).status == 204)
        let head = try await proxying.curl(upload, ["-I", "-H", "Tus-Resumable: 1.0.0"])
        #expect(head.status == 200 && head.headers["upload-offset"] == String(half), "\(head.headers)")
        #expect(try await ServeUploadTests.patch(proxying, upload, bytes.dropFirst(half), offset: half).status == 204)
        let finished = try await ServeUploadTests.finished(redirecting, upload)
        #expect(finished["state"] as? String == "done", "\(finished)")
        let id = try #require(finished["recording_id"] as? Int)

        // The first server links to the bucket; what the link gives is the recording, moov first.
        let answer = try await redirecting.curl("/media/roll/\(id)", ["-o", "/dev/null"])
        let location = try #require(answer.headers["location"])
        #expect(answer.status == 307 && location.contains("X-Amz-Signature=") && location.hasPrefix(RollObjectStoreTests.endpoint!))
        let fetched = try await ServeProcess.curl(location)
        #expect(fetched.status == 200 && fetched.body.count == bytes.count)
        // The other sends the bytes itself, ranges included.
        let range = try await proxying.curl("/media/roll/\(id)", ["-r", "100-199"])
        #expect(range.status == 206 && range.body == fetched.body.subdata(in: 100..<200))
        let whole = try await proxying.curl("/media/roll/\(id)")
        #expect(whole.status == 200 && whole.body == fetched.body)
        bytes.removeAll()

        // A poster is made, kept in the bucket and linked to; an HLS ladder's playlists come
        // from the server, its segments from the bucket (ffprobe follows the redirects).
        let poster = try await redirecting.curl("/media/roll/\(id)/thumb.jpg", ["-o", "/dev/null"])
        let posterURL = try #require(poster.headers["location"], "\(poster.status)")
        let jpeg = try await ServeProcess.curl(posterURL)
        #expect(poster.status == 307 && jpeg.status == 200 && ImageHeader.jpegSize(Array(jpeg.body)) != nil)
        let master = try await redirecting.curl("/roll/\(id)/hls/master.m3u8")
        #expect(master.status == 200 && master.text.hasPrefix("#EXTM3U"), "\(master.status) \(master.text.prefix(200))")
        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                            redirecting.base + "/roll/\(id)/hls/master.m3u8"])
        let duration = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(probe.status == 0 && abs(duration - 3) < 0.5, "\(probe.stdout)\(probe.stderr)")
        // A rung's playlist names its files by their objects' URLs here, by name when proxying.
        let rung = try #require(master.text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let named = try await redirecting.curl("/roll/\(id)/hls/\(rung)")
        let files = named.text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!files.isEmpty && files.allSatisfy { $0.hasPrefix(RollObjectStoreTests.endpoint! + "/") && $0.contains("X-Amz-Signature=") },
                "\(named.text)")
        #expect(named.text.contains(#"#EXT-X-MAP:URI="\#(RollObjectStoreTests.endpoint!)/"#), "\(named.text)")
        let first = try await ServeProcess.curl(String(files[0]))
        #expect(first.status == 200 && !first.body.isEmpty)
        // The DASH manifest the same way, its URLs' `&` written `&amp;`.
        let manifest = try await redirecting.curl("/roll/\(id)/hls/manifest.mpd")
        #expect(manifest.status == 200 && manifest.text.contains(#"media="\#(RollObjectStoreTests.endpoint!)/"#)
                && manifest.text.contains("&amp;X-Amz-") && !manifest.text.contains(#"media="\#(rung.split(separator: "/")[0])/"#), "\(manifest.text)")
        let proxiedManifest = try await proxying.curl("/roll/\(id)/hls/manifest.mpd")
        #expect(proxiedManifest.text.contains(#"media="\#(rung.split(separator: "/")[0])/"#), "\(proxiedManifest.text)")
        let proxied = try await proxying.curl("/roll/\(id)/hls/\(rung)")
        #expect(proxied.status == 200 && proxied.text.split(separator: "\n").contains { $0.hasPrefix("segment_") }, "\(proxied.text)")

        let rows = try await FeedProcess.run(["roll", "list", "--json"], environment: env).objects()
        #expect(rows.count == 1 && (rows.first?["file"] as? String)?.hasPrefix(media + "/recordings/") == true, "\(rows)")
        let open = try await FeedProcess.run(["roll", "verify"], environment: env)
        #expect(open.status == 0, "no multipart upload or state is left over: \(open.stdout)\(open.stderr)")
    }

    @Test("a server killed mid-PATCH with a part uploaded and its state not rewritten: another server reports the last durable offset, the upload resumes there, and every byte arrives")
    func killedMidUpload() async throws {
        let shared = try await SharedCatalog()
        guard let (_, env) = Self.setting(shared) else { return }
        // Over one 8 MiB part: an MJPEG clip of about 20 MB.
        let clip = shared.folder.path("big.mp4")
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=6",
                                                          "-c:v", "mjpeg", "-q:v", "1", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        try #require(bytes.count > 9 << 20, "the clip is \(bytes.count) bytes")

        let doomed = try await ServeProcess(["--jobs", "0"], environment: env.merging(["FEED_ROLL_CRASH_AT": "upload.parts"]) { $1 })
        let upload = try await ServeUploadTests.create(doomed, length: bytes.count, filename: "big.mp4")
        // A curl of its own: the server dies under it (no answer is the point).
        try await ChildProcess.run(ServeUploadTests.slowPatch(doomed, upload, body: URL(fileURLWithPath: clip), rate: "1G"), limited: false)
        #expect(await doomed.child.exits(within: 20), "the server was to kill itself after uploading a part")

        let survivor = try await ServeProcess(["--jobs", "0"], environment: env)
        let head = try await survivor.curl(upload, ["-I", "-H", "Tus-Resumable: 1.0.0"])
        #expect(head.status == 200 && head.headers["upload-offset"] == "0", "a part whose sync never finished is not counted: \(head.headers)")
        // The dead server's claim on the upload runs out (its lease) before another may write.
        var status = 0
        try await waitUntil(timeout: 40, every: 0.5) {
            status = try await ServeUploadTests.patch(survivor, upload, bytes, offset: 0).status
            return status != 423 && status != 409
        }
        #expect(status == 204)
        let finished = try await ServeUploadTests.finished(survivor, upload)
        #expect(finished["state"] as? String == "done", "\(finished)")
        let id = try #require(finished["recording_id"] as? Int)
        let answer = try await survivor.curl("/media/roll/\(id)", ["-L"])
        #expect(answer.status == 200 && answer.body.count == bytes.count)
        let verify = try await FeedProcess.run(["roll", "verify", "--deep"], environment: env)
        #expect(verify.status == 0, "nothing is left open: \(verify.stdout)\(verify.stderr)")
    }

    @Test("a live stream published over RTMP to a server on a bucket becomes a recording in the bucket, its frames the publisher's")
    func liveToBucket() async throws {
        let folder = try ScratchFolder()
        guard let (media, env) = RollObjectStoreTests.setting(folder) else { return }
        let clip = folder.path("live.flv")
        try await ServeLiveRecordingTests.clip(clip, pattern: "testsrc", seconds: 2)
        let serve = try await ServeProcess(["--rtmp-port", "0", "--live-reconnect-window", "0"],
                                           environment: env.merging(["FEED_MEDIA": media]) { $1 }.filter { $0.key != "FEED_HOME" })
        let stream = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"to the bucket"}"#]).json()
        let url = try #require(stream["rtmp_url"] as? String) + "/" + (try #require(stream["stream_key"] as? String))
        let publisher = try ServeLiveRecordingTests.publish(clip, to: url, log: folder.url("publish.log"))
        #expect(await publisher.exitStatus() == 0)
        let recording = try await ServeLiveRecordingTests.recording(of: serve)
        let id = try #require(recording["id"] as? Int)
        let rows = try await FeedProcess.run(["roll", "list", "--json", "--media", media], environment: env.merging(["FEED_HOME": serve.home.home.path]) { $1 })
            .objects()
        #expect(rows.count == 1 && (rows.first?["file"] as? String)?.hasPrefix(media + "/recordings/") == true, "\(rows)")
        let answer = try await serve.curl("/media/roll/\(id)", ["-o", "/dev/null"])
        let location = try #require(answer.headers["location"], "\(answer.status)")
        let fetched = folder.path("fetched.mp4")
        try await ServeProcess.curl(location).body.write(to: URL(fileURLWithPath: fetched))
        #expect(try await ServeLiveRecordingTests.frames(fetched) == ServeLiveRecordingTests.frames(clip))
    }

    @Test("--media-public-url needs an http(s) base and a redirect")
    func options() async throws {
        let bad = try await FeedProcess.run(["serve", "--media-public-url", "ftp://cdn"])
        #expect(bad.status == 64 && bad.stderr.contains("--media-public-url must be an http(s) URL"), "\(bad.stderr)")
        let both = try await FeedProcess.run(["serve", "--media-public-url", "https://cdn.example", "--media-serve", "proxy"])
        #expect(both.status == 64 && both.stderr.contains("does not go with --media-serve proxy"), "\(both.stderr)")
    }
}
